-- One asking of the provider at a time per refund (lib/payments/refund-order.ts).
ALTER TABLE "Order" ADD COLUMN "refundAskingUntil" TIMESTAMP(3);
