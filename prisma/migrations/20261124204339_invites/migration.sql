-- AlterTable
ALTER TABLE "OAuthState" ADD COLUMN     "inviteCode" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "inviteCode" TEXT,
ADD COLUMN     "invitedAt" TIMESTAMP(3),
ADD COLUMN     "inviterId" TEXT;

-- CreateTable
CREATE TABLE "InviteSettings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "rates" JSONB NOT NULL DEFAULT '{}',
    "payAs" "LedgerAccount" NOT NULL DEFAULT 'POINTS',
    "pointsPerYuan" INTEGER NOT NULL DEFAULT 100,
    "inviteReward" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InviteSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommissionRecord" (
    "id" SERIAL NOT NULL,
    "orderId" TEXT NOT NULL,
    "inviterId" TEXT NOT NULL,
    "inviteeId" TEXT NOT NULL,
    "orderType" "OrderType" NOT NULL,
    "orderAmount" INTEGER NOT NULL,
    "rate" INTEGER NOT NULL,
    "account" "LedgerAccount" NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" "Status" NOT NULL DEFAULT 'SUCCESS',
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CommissionRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CommissionRecord_orderId_key" ON "CommissionRecord"("orderId");

-- CreateIndex
CREATE INDEX "CommissionRecord_inviterId_createdAt_idx" ON "CommissionRecord"("inviterId", "createdAt");

-- CreateIndex
CREATE INDEX "CommissionRecord_createdAt_idx" ON "CommissionRecord"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "User_inviteCode_key" ON "User"("inviteCode");

-- CreateIndex
CREATE INDEX "User_inviterId_invitedAt_idx" ON "User"("inviterId", "invitedAt");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommissionRecord" ADD CONSTRAINT "CommissionRecord_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommissionRecord" ADD CONSTRAINT "CommissionRecord_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommissionRecord" ADD CONSTRAINT "CommissionRecord_inviteeId_fkey" FOREIGN KEY ("inviteeId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One settings row; nobody invites themselves; percentages and amounts stay in range.
ALTER TABLE "InviteSettings" ADD CONSTRAINT "InviteSettings_single_row" CHECK ("id" = 1);
ALTER TABLE "InviteSettings" ADD CONSTRAINT "InviteSettings_ranges" CHECK ("pointsPerYuan" BETWEEN 0 AND 100000 AND "inviteReward" BETWEEN 0 AND 1000000);
ALTER TABLE "User" ADD CONSTRAINT "User_not_own_inviter" CHECK ("inviterId" IS NULL OR "inviterId" <> "id");
ALTER TABLE "CommissionRecord" ADD CONSTRAINT "CommissionRecord_ranges" CHECK ("rate" BETWEEN 1 AND 100 AND "amount" > 0 AND "orderAmount" > 0);
