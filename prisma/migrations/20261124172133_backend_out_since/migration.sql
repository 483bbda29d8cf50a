-- AlterTable
ALTER TABLE "AiModel" ADD COLUMN     "outSince" TIMESTAMP(3);

-- Backends already out of routing count as out since their last check.
UPDATE "AiModel" SET "outSince" = COALESCE("healthCheckedAt", now()) WHERE NOT "healthy";
