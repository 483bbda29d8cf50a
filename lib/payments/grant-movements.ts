import 'server-only'
import type { Tx } from '@/lib/db'
import type { LedgerKind } from '@/lib/generated/prisma/enums'
import { postMovement } from '@/lib/ledger/post-movement'
import type { OrderGrant } from './order-grant'

/**
 * Books the points and balance of an order's grant, given (+1) or taken back (-1), with
 * references `<prefix>:points` and `<prefix>:balance`. Membership days are the caller's.
 */
export async function postGrant(
  tx: Tx,
  userId: string,
  grant: OrderGrant,
  move: { sign: 1 | -1; kind: LedgerKind; prefix: string; note: string },
): Promise<void> {
  const { sign, kind, prefix, note } = move
  if (grant.points) await postMovement(tx, { userId, account: 'POINTS', kind, amount: sign * grant.points, reference: `${prefix}:points`, note })
  if (grant.balance) await postMovement(tx, { userId, account: 'BALANCE', kind, amount: sign * grant.balance, reference: `${prefix}:balance`, note })
}
