-- AlterEnum
ALTER TYPE "ModelType" ADD VALUE 'VIDEO';

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "TaskType" ADD VALUE 'VIDEO_TEXT2VIDEO';
ALTER TYPE "TaskType" ADD VALUE 'VIDEO_IMG2VIDEO';

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "videos" JSONB NOT NULL DEFAULT '[]';
