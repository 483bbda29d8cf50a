-- The console's invite list counts an invitee's paid orders without the refunded ones
-- (lib/invites/list-commission.ts), still from an index alone: a refunded order keeps its
-- status SUCCESS and gets "refundedAt", so the index leaves those out by its predicate.

-- DropIndex
DROP INDEX "Order_userId_status_amount_idx";

-- CreateIndex
CREATE INDEX "Order_paid_userId_amount_idx" ON "Order"("userId", "amount") WHERE ("status" = 'SUCCESS' AND "refundedAt" IS NULL);
