-- A refund whose provider answer is unknown (a timeout, a 5xx, WeChat's PROCESSING) is no
-- longer taken as refused: the order stays claimed (refundNo set, refundedAt null) and the
-- worker asks again with the same refundNo. What the refund took from the membership is kept
-- on the order so that a refusal that comes later can still put it back.

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "refundUndo" JSONB;

-- CreateIndex
CREATE INDEX "Order_refunding_idx" ON "Order"("updatedAt") WHERE ("refundNo" IS NOT NULL AND "refundedAt" IS NULL);
