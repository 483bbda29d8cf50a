-- The console's invite list (lib/invites/list-commission.ts): its page read in order from a
-- partial index of invited users instead of sorting them all, and each invitee's paid orders and
-- earned commission summed from indexes alone (no row read).

-- DropIndex
DROP INDEX "CommissionRecord_inviteeId_idx";

-- CreateIndex
CREATE INDEX "CommissionRecord_inviteeId_status_account_amount_idx" ON "CommissionRecord"("inviteeId", "status", "account", "amount");

-- CreateIndex
CREATE INDEX "Order_userId_status_amount_idx" ON "Order"("userId", "status", "amount");

-- CreateIndex
CREATE INDEX "User_invitedAt_id_idx" ON "User"("invitedAt" DESC, "id" DESC) WHERE ("inviterId" IS NOT NULL);
