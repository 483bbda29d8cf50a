-- The console's invite list counts an invitee's paid orders as money that came in: an order
-- paid from the balance spends money counted when it was recharged, and an order whose
-- refund is claimed (still awaiting the provider's answer, or done) is no longer paid.
-- Still read from an index alone, whose predicate is the list's.

-- DropIndex
DROP INDEX "Order_paid_userId_amount_idx";

-- CreateIndex
CREATE INDEX "Order_paid_userId_amount_idx" ON "Order"("userId", "amount") WHERE ("status" = 'SUCCESS' AND "refundNo" IS NULL AND "channel" <> 'BALANCE');
