-- A fulfilled plan's stretch of the membership and the benefits it replaced, for refunds.
ALTER TABLE "Order" ADD COLUMN "membershipPeriod" JSONB;
