import { formatDateTime } from '@/lib/format'
import { Badge } from '@/components/ui/card'
import { failureRate, type ModelRow } from './model-labels'

/**
 * One instance's health and load in one cell: the health check's verdict, the queue (its
 * own, and its pool's, which any healthy member may take), what it runs out of its slots,
 * and the last hour's failed share of the attempts made on it.
 */
export function ModelStatus({ model: m }: { model: ModelRow }) {
  const rate = failureRate(m)
  return (
    <div className="w-44 space-y-0.5 whitespace-normal text-xs text-zinc-400">
      <div className="flex items-center gap-2">
        <Badge tone={m.healthy ? 'green' : 'red'}>{m.healthy ? '正常' : '异常'}</Badge>
        {m.healthCheckedAt && <span className="text-[10px] text-zinc-600">{formatDateTime(m.healthCheckedAt).slice(11)}</span>}
      </div>
      {m.healthMessage && (
        <div className="truncate text-red-300" title={m.healthMessage}>
          {m.healthMessage}
        </div>
      )}
      <div>
        排队 <span className={m.queued ? 'text-amber-300' : ''}>{m.queued}</span>
        {m.pool !== null && (
          <span title={`资源池 ${m.pool} 的排队任务，由池中最空闲的健康实例接单`}>
            {' '}
            · 池 {m.pool} 排队 <span className={m.poolQueued ? 'text-amber-300' : ''}>{m.poolQueued ?? 0}</span>
          </span>
        )}
      </div>
      <div>
        运行 <span className={m.running ? 'text-emerald-400' : ''}>{m.running}</span> / {m.concurrency}
      </div>
      <div className={m.recentFailures ? 'text-red-300' : ''} title="近 1 小时在该实例上的尝试中失败的比例（转到其他实例成功的任务也计入）">
        近 1 小时失败率 {rate ?? '-'}
      </div>
    </div>
  )
}
