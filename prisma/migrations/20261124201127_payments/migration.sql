-- CreateEnum
CREATE TYPE "OrderType" AS ENUM ('BALANCE', 'POINTS', 'MEMBERSHIP', 'CHAT_MEMBERSHIP', 'BUY_VIDEO_MATERIAL', 'BATCH_BUY_VIDEO_MATERIAL');

-- CreateEnum
CREATE TYPE "PayChannel" AS ENUM ('WECHAT', 'ALIPAY', 'BALANCE');

-- CreateEnum
CREATE TYPE "WxTradeType" AS ENUM ('JSAPI', 'NATIVE', 'APP', 'MWEB');

-- CreateEnum
CREATE TYPE "MembershipKind" AS ENUM ('IMAGE', 'CHAT');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "LedgerKind" ADD VALUE 'ORDER_CREDIT';
ALTER TYPE "LedgerKind" ADD VALUE 'ORDER_PAYMENT';
ALTER TYPE "LedgerKind" ADD VALUE 'ORDER_REFUND';
ALTER TYPE "LedgerKind" ADD VALUE 'SIGNUP_GIFT';
ALTER TYPE "LedgerKind" ADD VALUE 'CHECK_IN';
ALTER TYPE "LedgerKind" ADD VALUE 'MEMBERSHIP_DAILY';
ALTER TYPE "LedgerKind" ADD VALUE 'COMMISSION';
ALTER TYPE "LedgerKind" ADD VALUE 'COMMISSION_REVERSAL';
ALTER TYPE "LedgerKind" ADD VALUE 'INVITE_REWARD';
ALTER TYPE "LedgerKind" ADD VALUE 'CHAT_CHARGE';
ALTER TYPE "LedgerKind" ADD VALUE 'CHAT_REFUND';

-- CreateTable
CREATE TABLE "Product" (
    "id" SERIAL NOT NULL,
    "type" "OrderType" NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "price" INTEGER NOT NULL,
    "points" INTEGER,
    "balance" INTEGER,
    "days" INTEGER,
    "dailyPoints" INTEGER,
    "discountPercent" INTEGER,
    "dailyMessages" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "outTradeNo" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" "OrderType" NOT NULL,
    "productId" INTEGER,
    "grant" JSONB NOT NULL,
    "subject" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "tradeType" "WxTradeType",
    "alipayMethod" TEXT,
    "status" "Status" NOT NULL DEFAULT 'PENDING',
    "providerTxnId" TEXT,
    "paidAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "nextQueryAt" TIMESTAMP(3),
    "queryCount" INTEGER NOT NULL DEFAULT 0,
    "flag" TEXT,
    "payment" JSONB,
    "refundedAt" TIMESTAMP(3),
    "refundNo" TEXT,
    "refundReason" TEXT,
    "idempotencyKey" TEXT,
    "requestHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentNotification" (
    "id" SERIAL NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "orderId" TEXT,
    "outTradeNo" TEXT,
    "eventId" TEXT,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "raw" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentNotification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChargeRecord" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "type" "OrderType" NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "amount" INTEGER NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "balance" INTEGER NOT NULL DEFAULT 0,
    "days" INTEGER NOT NULL DEFAULT 0,
    "status" "Status" NOT NULL DEFAULT 'SUCCESS',
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChargeRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" "MembershipKind" NOT NULL,
    "productId" INTEGER,
    "planName" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "dailyPoints" INTEGER NOT NULL DEFAULT 0,
    "discountPercent" INTEGER NOT NULL DEFAULT 0,
    "dailyMessages" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Product_enabled_sort_idx" ON "Product"("enabled", "sort");

-- CreateIndex
CREATE UNIQUE INDEX "Order_outTradeNo_key" ON "Order"("outTradeNo");

-- CreateIndex
CREATE UNIQUE INDEX "Order_refundNo_key" ON "Order"("refundNo");

-- CreateIndex
CREATE INDEX "Order_userId_createdAt_idx" ON "Order"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Order_status_nextQueryAt_idx" ON "Order"("status", "nextQueryAt");

-- CreateIndex
CREATE INDEX "Order_createdAt_idx" ON "Order"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Order_userId_idempotencyKey_key" ON "Order"("userId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "Order_channel_providerTxnId_key" ON "Order"("channel", "providerTxnId");

-- CreateIndex
CREATE INDEX "PaymentNotification_orderId_idx" ON "PaymentNotification"("orderId");

-- CreateIndex
CREATE INDEX "PaymentNotification_receivedAt_idx" ON "PaymentNotification"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChargeRecord_orderId_key" ON "ChargeRecord"("orderId");

-- CreateIndex
CREATE INDEX "ChargeRecord_userId_createdAt_idx" ON "ChargeRecord"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ChargeRecord_createdAt_idx" ON "ChargeRecord"("createdAt");

-- CreateIndex
CREATE INDEX "Membership_kind_expiresAt_idx" ON "Membership"("kind", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_userId_kind_key" ON "Membership"("userId", "kind");

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentNotification" ADD CONSTRAINT "PaymentNotification_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChargeRecord" ADD CONSTRAINT "ChargeRecord_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChargeRecord" ADD CONSTRAINT "ChargeRecord_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: amounts are positive integer cents, out_trade_no fits both providers, and a paid
-- order never moves out of SUCCESS (refunds are recorded beside it, not by changing its status).
ALTER TABLE "Product" ADD CONSTRAINT "Product_price_positive" CHECK ("price" > 0);
ALTER TABLE "Product" ADD CONSTRAINT "Product_amounts_positive" CHECK (
  ("points" IS NULL OR "points" > 0) AND ("balance" IS NULL OR "balance" > 0) AND ("days" IS NULL OR "days" > 0)
  AND ("dailyPoints" IS NULL OR "dailyPoints" > 0) AND ("dailyMessages" IS NULL OR "dailyMessages" > 0)
  AND ("discountPercent" IS NULL OR "discountPercent" BETWEEN 1 AND 99));
ALTER TABLE "Order" ADD CONSTRAINT "Order_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "Order" ADD CONSTRAINT "Order_outTradeNo_format" CHECK ("outTradeNo" ~ '^[0-9A-Za-z_|*-]{6,32}$');
ALTER TABLE "ChargeRecord" ADD CONSTRAINT "ChargeRecord_amounts_nonnegative" CHECK ("amount" >= 0 AND "points" >= 0 AND "balance" >= 0 AND "days" >= 0);

CREATE FUNCTION order_success_is_final() RETURNS trigger AS $$
BEGIN
  IF OLD."status" = 'SUCCESS' AND NEW."status" <> 'SUCCESS' THEN
    RAISE EXCEPTION 'a paid order (%) cannot leave SUCCESS', OLD."id";
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Order_success_is_final" BEFORE UPDATE OF "status" ON "Order"
  FOR EACH ROW EXECUTE FUNCTION order_success_is_final();
