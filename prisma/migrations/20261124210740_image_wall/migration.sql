-- CreateEnum
CREATE TYPE "WallStatus" AS ENUM ('PENDING', 'APPROVED', 'HIDDEN');

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "deletedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "WallWork" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "imageIndex" INTEGER NOT NULL DEFAULT 0,
    "status" "WallStatus" NOT NULL DEFAULT 'PENDING',
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "modelType" "ModelType" NOT NULL,
    "modelName" TEXT NOT NULL,
    "imageUrl" TEXT NOT NULL,
    "thumbUrl" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "likes" INTEGER NOT NULL DEFAULT 0,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "listedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WallWork_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WallLike" (
    "workId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WallLike_pkey" PRIMARY KEY ("workId","userId")
);

-- CreateTable
CREATE TABLE "WallFavorite" (
    "workId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WallFavorite_pkey" PRIMARY KEY ("workId","userId")
);

-- CreateTable
CREATE TABLE "WallReport" (
    "workId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WallReport_pkey" PRIMARY KEY ("workId","userId")
);

-- CreateTable
CREATE TABLE "Showcase" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "coverWorkId" TEXT,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Showcase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShowcaseItem" (
    "showcaseId" INTEGER NOT NULL,
    "workId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "ShowcaseItem_pkey" PRIMARY KEY ("showcaseId","workId")
);

-- CreateIndex
CREATE UNIQUE INDEX "WallWork_taskId_key" ON "WallWork"("taskId");

-- CreateIndex
CREATE INDEX "WallWork_status_listedAt_id_idx" ON "WallWork"("status", "listedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WallWork_status_likes_id_idx" ON "WallWork"("status", "likes" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WallWork_status_modelType_listedAt_id_idx" ON "WallWork"("status", "modelType", "listedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WallWork_status_modelType_likes_id_idx" ON "WallWork"("status", "modelType", "likes" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WallWork_status_featured_sort_idx" ON "WallWork"("status", "featured", "sort");

-- CreateIndex
CREATE INDEX "WallWork_userId_idx" ON "WallWork"("userId");

-- CreateIndex
CREATE INDEX "WallLike_userId_idx" ON "WallLike"("userId");

-- CreateIndex
CREATE INDEX "WallFavorite_userId_idx" ON "WallFavorite"("userId");

-- CreateIndex
CREATE INDEX "ShowcaseItem_workId_idx" ON "ShowcaseItem"("workId");

-- AddForeignKey
ALTER TABLE "WallWork" ADD CONSTRAINT "WallWork_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WallWork" ADD CONSTRAINT "WallWork_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WallLike" ADD CONSTRAINT "WallLike_workId_fkey" FOREIGN KEY ("workId") REFERENCES "WallWork"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WallFavorite" ADD CONSTRAINT "WallFavorite_workId_fkey" FOREIGN KEY ("workId") REFERENCES "WallWork"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WallReport" ADD CONSTRAINT "WallReport_workId_fkey" FOREIGN KEY ("workId") REFERENCES "WallWork"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShowcaseItem" ADD CONSTRAINT "ShowcaseItem_showcaseId_fkey" FOREIGN KEY ("showcaseId") REFERENCES "Showcase"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShowcaseItem" ADD CONSTRAINT "ShowcaseItem_workId_fkey" FOREIGN KEY ("workId") REFERENCES "WallWork"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The likes counter moves with the like rows and never goes below zero.
ALTER TABLE "WallWork" ADD CONSTRAINT "WallWork_likes_check" CHECK ("likes" >= 0);
