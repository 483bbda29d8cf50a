import { describe, expect, it } from 'vitest'
import { ZCustomModelUpdateSchema } from '@/lib/custom-models/schemas'
import { ZPromptUpdateSchema } from '@/lib/prompts/schemas'
import { updateSchemaOf, z } from '@/lib/zod'

describe('update schemas', () => {
  it('leave out what the PATCH leaves out instead of filling in the create defaults', () => {
    const create = z.object({ name: z.string(), sort: z.number().default(0), note: z.string().nullable().default(null) }).strict()
    expect(updateSchemaOf(create).parse({ name: 'a' })).toEqual({ name: 'a' })
    expect(updateSchemaOf(create).parse({ sort: 3 })).toEqual({ sort: 3 })
    expect(() => updateSchemaOf(create).parse({ other: 1 })).toThrow()
  })

  it('a preset PATCH naming only its model keeps the LoRA, trigger words and switches', () => {
    expect(ZCustomModelUpdateSchema.parse({ modelId: 'm1' })).toEqual({ modelId: 'm1' })
    expect(ZPromptUpdateSchema.parse({ title: '猫' })).toEqual({ title: '猫' })
  })

  it('still validates the fields it is given', () => {
    expect(ZCustomModelUpdateSchema.safeParse({ price: 1.5 }).success).toBe(false)
    expect(ZPromptUpdateSchema.safeParse({ prompt: '' }).success).toBe(false)
  })
})
