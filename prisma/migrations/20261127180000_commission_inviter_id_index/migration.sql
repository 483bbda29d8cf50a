-- The caller's commission list pages newest first by id (lib/invites/list-commission.ts).
CREATE INDEX "CommissionRecord_inviterId_id_idx" ON "CommissionRecord"("inviterId", "id");
