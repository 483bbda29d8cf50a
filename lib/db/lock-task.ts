import 'server-only'
import type { Tx } from '@/lib/db'

/**
 * Holds a task's row until the transaction ends, so that two changes to what it shows take
 * turns: a publish that read the task before a delete committed would otherwise put a work
 * of a deleted task on the wall.
 */
export async function lockTask(tx: Tx, taskId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Task" WHERE "id" = ${taskId} FOR UPDATE`
}
