-- Hand-written: the sequence behind readable card numbers (Card.cardNo).
CREATE SEQUENCE card_no_seq;

-- CreateEnum
CREATE TYPE "Status" AS ENUM ('SUCCESS', 'FAIL', 'PENDING', 'CANCELED');

-- CreateEnum
CREATE TYPE "LedgerAccount" AS ENUM ('BALANCE', 'POINTS');

-- CreateEnum
CREATE TYPE "LedgerKind" AS ENUM ('CARD_REDEEM', 'ADMIN_ADJUST');

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "account" "LedgerAccount" NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "amount" INTEGER NOT NULL,
    "balanceAfter" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "note" TEXT,
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardBatch" (
    "id" SERIAL NOT NULL,
    "note" TEXT,
    "points" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "count" INTEGER NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Card" (
    "id" SERIAL NOT NULL,
    "cardNo" TEXT NOT NULL DEFAULT ('C'::text || lpad((nextval('card_no_seq'::regclass))::text, 8, '0'::text)),
    "keyHash" TEXT NOT NULL,
    "cardKeyEnc" TEXT NOT NULL,
    "keyMask" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "status" "Status" NOT NULL DEFAULT 'PENDING',
    "failReason" TEXT,
    "batchId" INTEGER NOT NULL,
    "holderId" TEXT,
    "usedById" TEXT,
    "usedAt" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Card_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_reference_key" ON "LedgerEntry"("reference");

-- CreateIndex
CREATE INDEX "LedgerEntry_userId_id_idx" ON "LedgerEntry"("userId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Card_cardNo_key" ON "Card"("cardNo");

-- CreateIndex
CREATE INDEX "Card_status_id_idx" ON "Card"("status", "id");

-- CreateIndex
CREATE INDEX "Card_keyHash_idx" ON "Card"("keyHash");

-- CreateIndex
CREATE INDEX "Card_holderId_idx" ON "Card"("holderId");

-- CreateIndex
CREATE INDEX "Card_usedById_idx" ON "Card"("usedById");

-- CreateIndex
CREATE INDEX "Card_batchId_idx" ON "Card"("batchId");

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "CardBatch"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_holderId_fkey" FOREIGN KEY ("holderId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_usedById_fkey" FOREIGN KEY ("usedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: at most one READY card per key, so two imports of the same key cannot
-- both become redeemable even when checked at the same moment.
CREATE UNIQUE INDEX "Card_ready_keyHash_key" ON "Card"("keyHash") WHERE "status" = 'SUCCESS';

ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_amount_nonzero" CHECK ("amount" <> 0);
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_balanceAfter_nonnegative" CHECK ("balanceAfter" >= 0);
ALTER TABLE "Card" ADD CONSTRAINT "Card_points_positive" CHECK ("points" > 0);
ALTER TABLE "Card" ADD CONSTRAINT "Card_used_consistent" CHECK (("usedAt" IS NULL) = ("usedById" IS NULL));
ALTER TABLE "CardBatch" ADD CONSTRAINT "CardBatch_points_positive" CHECK ("points" > 0);

-- Hand-written: the ledger is append-only (corrections are new, reversing entries).
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER "LedgerEntry_append_only" BEFORE UPDATE OR DELETE ON "LedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION refuse_change();
