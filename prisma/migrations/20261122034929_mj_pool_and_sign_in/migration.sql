-- AlterTable
ALTER TABLE "AiModel" ADD COLUMN     "healthCheckedAt" TIMESTAMP(3),
ADD COLUMN     "healthFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "healthMessage" TEXT,
ADD COLUMN     "healthy" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "pool" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "action" TEXT,
ADD COLUMN     "buttons" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "poolKey" TEXT,
ADD COLUMN     "previewUrl" TEXT;

-- CreateTable
CREATE TABLE "SmsCode" (
    "id" SERIAL NOT NULL,
    "mobile" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SmsCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthState" (
    "state" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "userId" TEXT,
    "ticketId" TEXT,
    "returnPath" TEXT NOT NULL DEFAULT '/',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthState_pkey" PRIMARY KEY ("state")
);

-- CreateTable
CREATE TABLE "LoginTicket" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "userId" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoginTicket_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SmsCode_mobile_purpose_createdAt_idx" ON "SmsCode"("mobile", "purpose", "createdAt");

-- CreateIndex
CREATE INDEX "Task_poolKey_status_stage_idx" ON "Task"("poolKey", "status", "stage");

-- CreateIndex
CREATE INDEX "Task_parentId_idx" ON "Task"("parentId");
