-- AlterTable
ALTER TABLE "WallWork" ADD COLUMN     "durationSec" DOUBLE PRECISION,
ADD COLUMN     "videoUrl" TEXT;

-- A clip on the wall is a VIDEO work, and only a VIDEO work carries a clip.
ALTER TABLE "WallWork" ADD CONSTRAINT "WallWork_video_matches_type"
  CHECK (("modelType" = 'VIDEO') = ("videoUrl" IS NOT NULL));
