-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "lastQueriedAt" TIMESTAMP(3);
