-- AlterTable
ALTER TABLE "OAuthState" ADD COLUMN     "tokenVersion" INTEGER;
