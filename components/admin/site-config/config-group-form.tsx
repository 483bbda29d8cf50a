'use client'

import { useState, type FormEvent } from 'react'
import { useUpdateSetting } from '@/lib/api-client/resources/admin-site-config'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Input, Switch, Textarea } from '@/components/ui/field'
import { changedItems, saveOrder, shownValue, withoutSaved, type Edits, type Value } from './config-edits'
import type { ConfigItemView } from './site-config-editor'
import { settingLookup, switchWarning } from './switch-warnings'

function SwitchWarning({ text }: { text: string | null }) {
  if (!text) return null
  return (
    <p role="note" className="mt-2 rounded-lg bg-amber-500/10 px-3 py-2 text-xs leading-relaxed text-amber-300 ring-1 ring-amber-500/30">
      {text}
    </p>
  )
}

function ConfigControl({ item, value, onChange, disabled }: { item: ConfigItemView; value: Value; onChange: (v: Value) => void; disabled: boolean }) {
  const id = `cfg-${item.name}`
  if (item.type === 'boolean') return <Switch id={id} checked={Boolean(value)} onChange={onChange} label={item.label} disabled={disabled} />
  // Long texts (the user agreement) get room to read.
  if (item.type === 'text')
    return <Textarea id={id} rows={String(value).length > 400 ? 14 : 3} value={String(value)} onChange={(e) => onChange(e.target.value)} disabled={disabled} />
  if (item.type === 'integer')
    return (
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        value={String(value)}
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
        disabled={disabled}
      />
    )
  const isSecret = item.visibility === 'secret'
  return (
    <Input
      id={id}
      type={isSecret ? 'password' : 'text'}
      autoComplete="off"
      value={String(value)}
      placeholder={isSecret ? '未设置' : undefined}
      onFocus={(e) => isSecret && String(value).startsWith('••••') && e.target.select()}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
    />
  )
}

/**
 * One group of settings. Only the fields being edited are kept here; everything else
 * shows the server's current value, and a saved field goes back to it (a secret then
 * shows masked again instead of staying in the page as typed). Saving sends only what
 * changed, one PATCH per setting.
 */
export function ConfigGroupForm({
  title,
  items,
  allItems,
  canEdit,
  onSaved,
}: {
  title: string
  items: ConfigItemView[]
  allItems: ConfigItemView[]
  canEdit: boolean
  onSaved: () => Promise<void>
}) {
  const [edits, setEdits] = useState<Edits>({})
  const [busy, run] = useAction()
  const updateSetting = useUpdateSetting()
  const valueOf = (item: ConfigItemView) => shownValue(item, edits)
  const changed = changedItems(items, edits)
  const edit = (name: string, value: Value) => setEdits((current) => ({ ...current, [name]: value }))
  const lookup = settingLookup(allItems, edits)

  async function save(e: FormEvent) {
    e.preventDefault()
    const order = saveOrder(changed, edits)
    const saved: string[] = []
    // On a failure, settings saved before the failing one stay saved (and leave the form).
    await run(async () => {
      try {
        for (const item of order) {
          await updateSetting.mutateAsync({ name: item.name, value: edits[item.name] })
          saved.push(item.name)
        }
        toast.success('保存成功')
      } finally {
        if (saved.length) {
          await onSaved()
          setEdits((current) => withoutSaved(current, saved))
        }
      }
    })
  }

  return (
    <Card>
      <form onSubmit={save}>
        <h2 className="mb-4 font-medium text-white">{title}</h2>
        <div className="space-y-5">
          {items.map((item) =>
            item.type === 'boolean' ? (
              <div key={item.name}>
                <div className="flex items-center justify-between gap-4">
                  <div>
                    <label htmlFor={`cfg-${item.name}`} className="text-sm font-medium text-zinc-300">
                      {item.label}
                    </label>
                    {item.help && <p className="text-xs text-zinc-500">{item.help}</p>}
                  </div>
                  <ConfigControl item={item} value={valueOf(item)} onChange={(v) => edit(item.name, v)} disabled={!canEdit} />
                </div>
                <SwitchWarning text={switchWarning(item.name, lookup.valueOf, lookup.isSet)} />
              </div>
            ) : (
              <Field
                key={item.name}
                label={item.label}
                htmlFor={`cfg-${item.name}`}
                help={item.help ?? (item.visibility === 'secret' ? '保密项：只显示末四位，不修改则保持原值' : undefined)}
              >
                <ConfigControl item={item} value={valueOf(item)} onChange={(v) => edit(item.name, v)} disabled={!canEdit} />
              </Field>
            ),
          )}
        </div>
        {canEdit && (
          <div className="mt-6 flex items-center gap-3">
            <Button type="submit" loading={busy} disabled={changed.length === 0}>
              保存
            </Button>
            {changed.length > 0 && <span className="text-xs text-zinc-500">{changed.length} 项未保存</span>}
          </div>
        )}
      </form>
    </Card>
  )
}
