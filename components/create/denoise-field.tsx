import { Field } from '@/components/ui/field'

/** 重绘幅度: how far the result may move from the uploaded picture (denoising strength). */
export function DenoiseField({ id, value, onChange, min, help }: { id: string; value: number; onChange: (value: number) => void; min: number; help: string }) {
  return (
    <Field label={`重绘幅度：${value.toFixed(2)}`} htmlFor={id} help={help}>
      <input
        id={id}
        type="range"
        min={min}
        max={1}
        step={0.05}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-full accent-brand-500"
      />
    </Field>
  )
}
