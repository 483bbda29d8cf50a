/** What the API shows of a preset (with its backend model's name). */
export const CUSTOM_MODEL_SELECT = {
  id: true,
  name: true,
  modelId: true,
  checkpoint: true,
  lora: true,
  triggerWords: true,
  defaultParams: true,
  cover: true,
  price: true,
  enabled: true,
  sort: true,
  model: { select: { name: true } },
} as const

/** What a user sees of a preset: its recipe (checkpoint, LoRA, default parameters, backend) is the operator's. */
export const PUBLIC_CUSTOM_MODEL_SELECT = { id: true, name: true, triggerWords: true, cover: true, price: true } as const
