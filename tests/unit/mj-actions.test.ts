import { describe, expect, it } from 'vitest'
import { childTaskType, classifyCustomId, priceKeyOf, submissionPriceKey } from '@/lib/mj/actions'
import { describedPrompts, parseButtons, parseProgress, parseTask } from '@/lib/generation/backends/mj-task'
import { MJ_PRICE_KEYS } from '@/lib/models/rules'

const h = '9f0c3f2a6d7e4b1c8a5d2e9f0b3c6a7d'

describe('customId → action and price key', () => {
  it.each([
    [`MJ::JOB::upsample::2::${h}`, 'MJ_UPSCALE', '放大 U2'],
    [`MJ::JOB::upsample_v6_2x_subtle::1::${h}::SOLO`, 'MJ_UPSCALE', '高清放大 2x（细微）'],
    [`MJ::JOB::upsample_v7_2x_creative::1::${h}::SOLO`, 'MJ_UPSCALE', '高清放大 2x（创意）'],
    [`MJ::JOB::variation::3::${h}`, 'MJ_VARIATION', '变体 V3'],
    [`MJ::JOB::high_variation::1::${h}::SOLO`, 'MJ_VARIATION', '强变化'],
    [`MJ::JOB::low_variation::1::${h}::SOLO`, 'MJ_VARIATION', '弱变化'],
    [`MJ::JOB::reroll::0::${h}::SOLO`, 'MJ_REROLL', '重新生成'],
    [`MJ::Outpaint::50::1::${h}::SOLO`, 'MJ_ZOOM', '缩小 2x'],
    [`MJ::Outpaint::75::1::${h}::SOLO`, 'MJ_ZOOM', '缩小 1.5x'],
    [`MJ::JOB::pan_left::1::${h}::SOLO`, 'MJ_PAN', '向左平移'],
    [`MJ::JOB::pan_down::1::${h}::SOLO`, 'MJ_PAN', '向下平移'],
    [`MJ::Inpaint::1::${h}::SOLO`, 'MJ_MODAL', '局部重绘'],
    [`MJ::CustomZoom::${h}`, 'MJ_MODAL', '自定义缩放'],
    ['MJ::Job::PicReader::4', 'MJ_IMAGINE', '按第 4 条生成'],
    ['MJ::Picread::Retry', 'MJ_DESCRIBE', '重新识图'],
  ])('%s → %s', (customId, priceKey, label) => {
    expect(classifyCustomId(customId)).toMatchObject({ priceKey, label })
    expect(priceKeyOf(customId)).toBe(priceKey)
  })

  it('only vary region and custom zoom are modal', () => {
    expect(classifyCustomId(`MJ::Inpaint::1::${h}::SOLO`)!.isModal).toBe(true)
    expect(classifyCustomId(`MJ::CustomZoom::${h}`)!.isModal).toBe(true)
    expect(classifyCustomId(`MJ::JOB::variation::1::${h}`)!.isModal).toBe(false)
  })

  it('buttons we do not offer (video, bookmarks, made-up ids) have no price', () => {
    for (const id of [`MJ::JOB::animate_high::1::${h}::SOLO`, `MJ::BOOKMARK::${h}`, 'MJ::JOB::upsample::5::x', 'upsample::1', ''])
      expect(classifyCustomId(id)).toBeNull()
  })

  it('every price key used is one the model price table accepts', () => {
    const used = new Set<string>()
    for (const a of ['IMAGINE', 'BLEND', 'DESCRIBE'] as const) used.add(submissionPriceKey(a))
    for (const id of [
      `MJ::JOB::upsample::1::${h}`,
      `MJ::JOB::variation::1::${h}`,
      `MJ::JOB::reroll::0::${h}::SOLO`,
      `MJ::Outpaint::50::1::${h}::SOLO`,
      `MJ::JOB::pan_up::1::${h}::SOLO`,
      `MJ::Inpaint::1::${h}::SOLO`,
    ])
      used.add(priceKeyOf(id)!)
    expect([...used].sort()).toEqual([...MJ_PRICE_KEYS].sort())
  })

  it('a button result is image-to-image, except reroll (like its parent) and a describe suggestion (text-to-image)', () => {
    expect(childTaskType(classifyCustomId(`MJ::JOB::upsample::1::${h}`)!, 'MJ_TEXT2IMG')).toBe('MJ_IMG2IMG')
    expect(childTaskType(classifyCustomId(`MJ::JOB::reroll::0::${h}::SOLO`)!, 'MJ_TEXT2IMG')).toBe('MJ_TEXT2IMG')
    expect(childTaskType(classifyCustomId(`MJ::JOB::reroll::0::${h}::SOLO`)!, 'MJ_IMG2IMG')).toBe('MJ_IMG2IMG')
    expect(childTaskType(classifyCustomId('MJ::Job::PicReader::1')!, 'MJ_IMG2IMG')).toBe('MJ_TEXT2IMG')
  })
})

describe('proxy task objects', () => {
  it('reads ids as strings, "NN%" progress as numbers, and drops buttons without a customId', () => {
    const task = parseTask({
      id: 1732512345678123,
      status: 'IN_PROGRESS',
      progress: '46%',
      imageUrl: '',
      buttons: [{ customId: 'a', label: 'U1' }, { label: 'x' }, 'junk'],
    })!
    expect(task).toMatchObject({ id: '1732512345678123', progress: 46, imageUrl: null })
    expect(task.buttons).toEqual([{ customId: 'a', label: 'U1', emoji: '', style: 2 }])
    expect(parseTask(null)).toBeNull()
    expect(parseTask({ status: 'SUCCESS' })).toBeNull()
    expect([parseProgress(''), parseProgress('100%'), parseProgress(62), parseProgress('abc')]).toEqual([0, 100, 62, 0])
    expect(parseButtons(undefined)).toEqual([])
  })

  it('splits a describe result into its four numbered suggestions', () => {
    const task = parseTask({ id: '1', properties: { finalPrompt: '1️⃣ a cat --ar 1:1\n\n2️⃣ a dog\n\n3️⃣ a fox\n\n 4️⃣ an owl' } })!
    expect(describedPrompts(task)).toEqual(['a cat --ar 1:1', 'a dog', 'a fox', 'an owl'])
  })
})
