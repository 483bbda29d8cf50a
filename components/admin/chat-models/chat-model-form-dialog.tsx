'use client'

import { useState, type FormEvent } from 'react'
import { useCreateChatModel, useUpdateChatModel, type AdminChatModelRow } from '@/lib/api-client/resources/admin-chat-models'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input, SwitchRow, Textarea } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { parseIntegerInput } from '@/components/admin/shared/json-object'

/** Creates a chat model (model = null) or edits one. The key is write-only: empty keeps the stored one. */
export function ChatModelFormDialog({ model, onClose }: { model: AdminChatModelRow | null; onClose: () => void }) {
  const isNew = model === null
  const [name, setName] = useState(model?.name ?? '')
  const [endpoint, setEndpoint] = useState(model?.endpoint ?? '')
  const [secret, setSecret] = useState('')
  const [clearSecret, setClearSecret] = useState(false)
  const [upstreamModel, setUpstreamModel] = useState(model?.model ?? '')
  const [systemPrompt, setSystemPrompt] = useState(model?.systemPrompt ?? '')
  const [context, setContext] = useState(String(model?.contextMessages ?? 10))
  const [price, setPrice] = useState(String(model?.pricePerMessage ?? 1))
  const [sort, setSort] = useState(String(model?.sort ?? 0))
  const [vision, setVision] = useState(model?.vision ?? false)
  const [enabled, setEnabled] = useState(model?.enabled ?? true)
  const [busy, run] = useAction()
  const create = useCreateChatModel()
  const update = useUpdateChatModel()

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return toast.error('请填写名称')
    if (!/^https?:\/\/\S+$/.test(endpoint.trim())) return toast.error('接口地址需以 http:// 或 https:// 开头')
    if (!upstreamModel.trim()) return toast.error('请填写模型名称')
    const contextMessages = parseIntegerInput(context)
    const pricePerMessage = parseIntegerInput(price)
    const order = parseIntegerInput(sort) ?? 0
    if (contextMessages === null || !Number.isInteger(contextMessages) || contextMessages < 0 || contextMessages > 100)
      return toast.error('上下文条数需为 0-100 的整数')
    if (pricePerMessage === null || !Number.isInteger(pricePerMessage) || pricePerMessage < 0) return toast.error('每条消息积分需为不小于 0 的整数')
    if (!Number.isInteger(order)) return toast.error('排序需为整数')
    const body = {
      name: name.trim(),
      endpoint: endpoint.trim(),
      model: upstreamModel.trim(),
      systemPrompt,
      contextMessages,
      pricePerMessage,
      vision,
      enabled,
      sort: order,
      ...(clearSecret ? { secret: '' } : secret.trim() ? { secret: secret.trim() } : {}),
    }
    await run(async () => {
      if (isNew) await create.mutateAsync(body)
      else await update.mutateAsync({ id: model.id, body })
      toast.success(isNew ? '对话模型已创建' : '已保存')
      onClose()
    })
  }

  return (
    <FormDialog title={isNew ? '新建对话模型' : `编辑对话模型 ${model.name}`} onClose={onClose} className="sm:max-w-2xl!" formId="chat-model-form" busy={busy}>
      <form id="chat-model-form" onSubmit={save} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="名称" htmlFor="cm-name" help="用户在模型选择里看到的名字">
            <Input id="cm-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} />
          </Field>
          <Field label="模型名称" htmlFor="cm-model" help="接口里的 model，如 gpt-4o-mini、deepseek-chat、qwen-plus">
            <Input id="cm-model" value={upstreamModel} onChange={(e) => setUpstreamModel(e.target.value)} maxLength={100} autoComplete="off" />
          </Field>
        </div>
        <Field label="接口地址" htmlFor="cm-endpoint" help="OpenAI 兼容接口，如 https://api.deepseek.com、https://dashscope.aliyuncs.com/compatible-mode/v1">
          <Input
            id="cm-endpoint"
            value={endpoint}
            onChange={(e) => setEndpoint(e.target.value)}
            maxLength={500}
            autoComplete="off"
            placeholder="https://api.openai.com/v1"
          />
        </Field>
        <Field label="密钥" htmlFor="cm-secret" help={model?.secret ? `已保存（${model.secret}），留空则不修改` : '只写不读：保存后不会再显示'}>
          <Input
            id="cm-secret"
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            maxLength={500}
            autoComplete="new-password"
            disabled={clearSecret}
            placeholder="sk-..."
          />
        </Field>
        {model?.secret && <SwitchRow id="cm-clear-secret" label="清除已保存的密钥" checked={clearSecret} onChange={setClearSecret} />}
        <Field label="系统提示词（可选）" htmlFor="cm-system" help={`${systemPrompt.length}/4000`}>
          <Textarea id="cm-system" rows={3} value={systemPrompt} onChange={(e) => setSystemPrompt(e.target.value)} maxLength={4000} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="上下文条数" htmlFor="cm-context" help="随新消息一起发送的历史消息数">
            <Input id="cm-context" type="number" inputMode="numeric" value={context} onChange={(e) => setContext(e.target.value)} />
          </Field>
          <Field label="每条消息积分" htmlFor="cm-price" help="没有对话会员时每次回答扣除">
            <Input id="cm-price" type="number" inputMode="numeric" value={price} onChange={(e) => setPrice(e.target.value)} />
          </Field>
          <Field label="排序" htmlFor="cm-sort" help="数字小的排在前面">
            <Input id="cm-sort" type="number" inputMode="numeric" value={sort} onChange={(e) => setSort(e.target.value)} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SwitchRow id="cm-vision" label="支持图片输入（识图）" checked={vision} onChange={setVision} />
          <SwitchRow id="cm-enabled" label="启用" checked={enabled} onChange={setEnabled} />
        </div>
      </form>
    </FormDialog>
  )
}
