-- CreateEnum
CREATE TYPE "ModelType" AS ENUM ('STABLE_DIFFUSION', 'MID_JOURNEY');

-- CreateEnum
CREATE TYPE "TaskType" AS ENUM ('SD_TEXT2IMG', 'SD_IMG2IMG', 'SD_IMGINPAINT', 'SD_IMGCONTROLNET', 'MJ_TEXT2IMG', 'MJ_IMG2IMG', 'MAKE_SAME', 'SD_XIAOLIMAO');

-- CreateEnum
CREATE TYPE "TaskStage" AS ENUM ('QUEUED', 'SUBMITTING', 'RUNNING', 'DONE');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "LedgerKind" ADD VALUE 'TASK_CHARGE';
ALTER TYPE "LedgerKind" ADD VALUE 'TASK_REFUND';

-- CreateTable
CREATE TABLE "AiModel" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "ModelType" NOT NULL DEFAULT 'STABLE_DIFFUSION',
    "backend" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL DEFAULT '',
    "secretEnc" TEXT,
    "checkpoint" TEXT,
    "prices" JSONB NOT NULL DEFAULT '{}',
    "options" JSONB NOT NULL DEFAULT '{}',
    "concurrency" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AiModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomModel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "checkpoint" TEXT,
    "lora" TEXT,
    "triggerWords" TEXT NOT NULL DEFAULT '',
    "defaultParams" JSONB NOT NULL DEFAULT '{}',
    "cover" TEXT,
    "price" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PromptTemplate" (
    "id" SERIAL NOT NULL,
    "category" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "negativePrompt" TEXT NOT NULL DEFAULT '',
    "cover" TEXT,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PromptTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UploadedImage" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadedImage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" "TaskType" NOT NULL,
    "status" "Status" NOT NULL DEFAULT 'PENDING',
    "stage" "TaskStage" NOT NULL DEFAULT 'QUEUED',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "params" JSONB NOT NULL,
    "modelId" TEXT NOT NULL,
    "customModelId" INTEGER,
    "parentId" TEXT,
    "priceSnapshot" JSONB NOT NULL,
    "chargedPoints" INTEGER NOT NULL,
    "upstreamId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "results" JSONB NOT NULL DEFAULT '[]',
    "backendLog" JSONB NOT NULL DEFAULT '[]',
    "idempotencyKey" TEXT,
    "isRecommended" BOOLEAN NOT NULL DEFAULT false,
    "refundedAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UploadedImage_userId_createdAt_idx" ON "UploadedImage"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Task_status_stage_runAfter_idx" ON "Task"("status", "stage", "runAfter");

-- CreateIndex
CREATE INDEX "Task_modelId_status_stage_idx" ON "Task"("modelId", "status", "stage");

-- CreateIndex
CREATE INDEX "Task_userId_createdAt_idx" ON "Task"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Task_isRecommended_finishedAt_idx" ON "Task"("isRecommended", "finishedAt");

-- CreateIndex
CREATE INDEX "Task_leaseExpiresAt_idx" ON "Task"("leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Task_userId_idempotencyKey_key" ON "Task"("userId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "CustomModel" ADD CONSTRAINT "CustomModel_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "AiModel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "AiModel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_customModelId_fkey" FOREIGN KEY ("customModelId") REFERENCES "CustomModel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Hand-written guards.
ALTER TABLE "Task" ADD CONSTRAINT "Task_progress_range" CHECK ("progress" BETWEEN 0 AND 100);
ALTER TABLE "Task" ADD CONSTRAINT "Task_charged_nonnegative" CHECK ("chargedPoints" >= 0);
ALTER TABLE "AiModel" ADD CONSTRAINT "AiModel_concurrency_positive" CHECK ("concurrency" >= 1);
ALTER TABLE "CustomModel" ADD CONSTRAINT "CustomModel_price_nonnegative" CHECK ("price" >= 0);
