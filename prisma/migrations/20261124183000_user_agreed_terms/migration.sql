-- AlterTable
ALTER TABLE "User" ADD COLUMN     "agreedTermsAt" TIMESTAMP(3);
