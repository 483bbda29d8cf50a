'use client'

import { useState } from 'react'
import type { ApiError } from '@/lib/api-client/request'
import { useImportCards } from '@/lib/api-client/resources/admin-cards'
import { useSiteConfig } from '@/lib/api-client/resources/admin-site-config'
import { parseImportText } from '@/lib/cards/parse-import-text'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'

/** The site's CARD_DEFAULT_POINTS (what an import without points gives each card), from the console's settings. */
function useDefaultPoints(enabled: boolean): number | undefined {
  const { data } = useSiteConfig(enabled)
  const value = data?.items.find((item) => item.name === 'CARD_DEFAULT_POINTS')?.value
  return typeof value === 'number' ? value : undefined
}

/** docs/PRODUCT.md §2.4: 批量导入卡密, a 10-row box, 取消 and 导入; plus points, note and expiry. */
export function ImportCardsDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (batchId: number) => void }) {
  const defaultPoints = useDefaultPoints(open)
  const [text, setText] = useState('')
  const [points, setPoints] = useState('')
  const [note, setNote] = useState('')
  const [expiresAt, setExpiresAt] = useState('')
  const [busy, run] = useAction()
  const importCards = useImportCards()
  const count = parseImportText(text).length

  async function submit() {
    if (!text.trim()) return toast.error('请输入卡密')
    await run(
      async () => {
        const { batchId } = await importCards.mutateAsync({
          cards: parseImportText(text),
          ...(points.trim() ? { points: Number(points) } : {}),
          ...(note.trim() ? { note: note.trim() } : {}),
          ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
        })
        toast.success('导入成功')
        setText('')
        setPoints('')
        setNote('')
        setExpiresAt('')
        onImported(batchId)
      },
      // The request is silent: this dialog names the failure itself.
      (error) => toast.error((error as ApiError | undefined)?.message || '导入失败'),
    )
  }

  return (
    <FormDialog open={open} title="批量导入卡密" onClose={onClose} onConfirm={submit} busy={busy} submitLabel="导入">
      <div className="space-y-4">
        <Field label="卡密" htmlFor="import-cards" help={count ? `共 ${count} 个卡密` : '每行一个，首尾空格和空行会被忽略'}>
          <Textarea
            id="import-cards"
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="请输入卡密，每行一个"
            className="font-mono"
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="每张积分（可选）"
            htmlFor="import-points"
            help={defaultPoints === undefined ? '留空则使用站点配置的默认积分' : `留空则使用站点默认积分：${defaultPoints}`}
          >
            <Input
              id="import-points"
              type="number"
              inputMode="numeric"
              min={1}
              value={points}
              onChange={(e) => setPoints(e.target.value)}
              placeholder={defaultPoints === undefined ? undefined : String(defaultPoints)}
            />
          </Field>
          <Field label="过期时间（可选）" htmlFor="import-expires">
            <Input id="import-expires" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
          </Field>
        </div>
        <Field label="批次备注（可选）" htmlFor="import-note">
          <Input id="import-note" maxLength={100} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
      </div>
    </FormDialog>
  )
}
