import { Button } from './button'
import { EmptyState } from './card'

/** 加载失败 with 重试: for a first read that nothing else on the page would ask again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <EmptyState>
      <p>加载失败，请稍后重试</p>
      <Button size="sm" variant="ghost" className="mt-3" onClick={onRetry}>
        重试
      </Button>
    </EmptyState>
  )
}
