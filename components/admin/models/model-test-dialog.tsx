'use client'

import { useModelTest } from '@/lib/api-client/resources/admin-models'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Loading } from '@/components/ui/spinner'
import type { ModelRow } from './model-labels'

/** 测试连接: asks the saved configuration's backend for its health and shows the answer. */
export function ModelTestDialog({ model, onClose }: { model: ModelRow; onClose: () => void }) {
  const { data, isFetching, isError, refetch } = useModelTest(model.id)

  return (
    <Dialog
      open
      title={`测试连接：${model.name}`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            关闭
          </Button>
          <Button loading={isFetching} onClick={() => refetch()}>
            重新测试
          </Button>
        </>
      }
    >
      {isFetching ? (
        <Loading className="py-8" />
      ) : isError ? (
        <p className="text-sm text-red-400">测试请求失败，请稍后重试</p>
      ) : data ? (
        <div className="space-y-3">
          <p
            role="status"
            className={cn(
              'rounded-lg px-3 py-2 text-sm ring-1 ring-inset',
              data.ok ? 'bg-emerald-500/10 text-emerald-400 ring-emerald-500/30' : 'bg-red-500/10 text-red-400 ring-red-500/30',
            )}
          >
            {data.ok ? '连接成功：' : '连接失败：'}
            {data.message}
          </p>
          {data.detail !== undefined && data.detail !== null && (
            <pre className="max-h-72 overflow-auto rounded-lg bg-zinc-950 p-3 font-mono text-xs text-zinc-300 ring-1 ring-zinc-800">
              {JSON.stringify(data.detail, null, 2)}
            </pre>
          )}
          <p className="text-xs text-zinc-500">测试使用已保存的配置；修改后请先保存再测试。</p>
        </div>
      ) : null}
    </Dialog>
  )
}
