-- The caller's commission list pages newest first by id (lib/invites/list-commission.ts).
CREATE INDEX "CommissionRecord_inviterId_id_idx" ON "CommissionRecord"("inviterId", "id");

-- The console's invite list sums the commission earned on its page's invitees.
CREATE INDEX "CommissionRecord_inviteeId_idx" ON "CommissionRecord"("inviteeId");
