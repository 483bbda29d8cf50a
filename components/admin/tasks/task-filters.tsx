'use client'

import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input, LabelOptions, Select } from '@/components/ui/field'
import { TASK_STATUS_LABELS, TASK_TYPE_LABELS } from '@/components/create/task-labels'

export type TaskFilterValues = { type: string; status: string; user: string; from: string; to: string }
export const NO_TASK_FILTERS: TaskFilterValues = { type: '', status: '', user: '', from: '', to: '' }

/** Type, status, user keyword and creation date range (from/to are whole days, both included). */
export function TaskFilters({ value, onChange }: { value: TaskFilterValues; onChange: (next: Partial<TaskFilterValues>) => void }) {
  const [userInput, setUserInput] = useState(value.user)

  function search(e: FormEvent) {
    e.preventDefault()
    onChange({ ...value, user: userInput.trim() })
  }

  return (
    <form onSubmit={search} className="mb-4 flex flex-wrap items-center gap-2">
      <Select aria-label="任务类型" value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value })} className="w-32">
        <LabelOptions all="全部类型" labels={TASK_TYPE_LABELS} />
      </Select>
      <Select aria-label="任务状态" value={value.status} onChange={(e) => onChange({ ...value, status: e.target.value })} className="w-32">
        <LabelOptions all="全部状态" labels={TASK_STATUS_LABELS} />
      </Select>
      <div className="flex items-center gap-1.5">
        <Input
          type="date"
          aria-label="开始日期"
          value={value.from}
          max={value.to || undefined}
          onChange={(e) => onChange({ ...value, from: e.target.value })}
          className="w-38"
        />
        <span className="text-sm text-zinc-500">至</span>
        <Input
          type="date"
          aria-label="结束日期"
          value={value.to}
          min={value.from || undefined}
          onChange={(e) => onChange({ ...value, to: e.target.value })}
          className="w-38"
        />
      </div>
      <div className="flex gap-2">
        <Input aria-label="搜索用户" value={userInput} onChange={(e) => setUserInput(e.target.value)} placeholder="用户名、昵称或用户 ID" className="w-52" />
        <Button type="submit" variant="secondary">
          搜索
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setUserInput('')
            onChange(NO_TASK_FILTERS)
          }}
        >
          重置
        </Button>
      </div>
    </form>
  )
}
