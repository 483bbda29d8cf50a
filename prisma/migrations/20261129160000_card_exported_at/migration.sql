-- When a card's full key first left the server in an export (it may have been sold since).
ALTER TABLE "Card" ADD COLUMN "exportedAt" TIMESTAMP(3);
