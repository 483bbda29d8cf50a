import { describe, expect, it } from 'vitest'
import { composeMjPrompt, composeParams, hasCjk, normalizeDashes, speedsIn, splitPrompt } from '@/lib/mj/compose-prompt'
import { chatCompletionsUrl } from '@/lib/mj/translate'

describe('Midjourney parameter composer', () => {
  it('composes the options in a fixed order: --ar --v --s --c --q then the speed flag', () => {
    expect(composeParams({ aspectRatio: '16:9', version: '6.1', stylize: 250, chaos: 10, quality: 1, speed: 'fast' })).toBe(
      '--ar 16:9 --v 6.1 --s 250 --c 10 --q 1 --fast',
    )
  })

  it('niji replaces --v; unset options and zero-less nulls are left out, 0 is kept', () => {
    expect(composeParams({ version: '6.1', niji: '6' })).toBe('--niji 6')
    expect(composeParams({ stylize: 0, chaos: null, quality: 0.25 })).toBe('--s 0 --q 0.25')
    expect(composeParams({})).toBe('')
  })

  it('raw parameters come last and win over an option that sets the same thing (any spelling)', () => {
    expect(composeParams({ aspectRatio: '1:1', stylize: 100, chaos: 5 }, '--aspect 2:3 --stylize 750 --no text')).toBe(
      '--c 5 --aspect 2:3 --stylize 750 --no text',
    )
    expect(composeParams({ version: '7', speed: 'relax' }, '--niji 6 --turbo')).toBe('--niji 6 --turbo')
    expect(composeParams({ quality: 2 }, '  --q .5  ')).toBe('--q .5')
  })

  it('parameters typed into the prompt are kept as raw ones', () => {
    expect(composeMjPrompt('an orange cat --ar 3:2 --no dogs', { aspectRatio: '16:9', version: '6.1' }, '--tile')).toBe(
      'an orange cat --v 6.1 --ar 3:2 --no dogs --tile',
    )
    expect(composeMjPrompt('  a lighthouse  ', { aspectRatio: '9:16', niji: '5' })).toBe('a lighthouse --ar 9:16 --niji 5')
  })

  it('splits a prompt at its first parameter, not at a dash inside words', () => {
    expect(splitPrompt('a well-lit room -- quiet --ar 4:3')).toEqual({ description: 'a well-lit room -- quiet', params: '--ar 4:3' })
    expect(splitPrompt('--v 6 only params')).toEqual({ description: '', params: '--v 6 only params' })
    expect(splitPrompt('plain')).toEqual({ description: 'plain', params: '' })
  })

  it('knows Chinese (and other CJK) text, which Midjourney does not read', () => {
    expect(hasCjk('一只猫')).toBe(true)
    expect(hasCjk('猫 cat')).toBe(true)
    expect(hasCjk('ねこ')).toBe(true)
    expect(hasCjk('a cat, 4k —— “quoted”')).toBe(false)
  })

  it('finds the chat completions URL of an OpenAI-compatible base', () => {
    expect(chatCompletionsUrl('https://api.openai.com')).toBe('https://api.openai.com/v1/chat/completions')
    expect(chatCompletionsUrl('https://api.deepseek.com/v1/')).toBe('https://api.deepseek.com/v1/chat/completions')
    expect(chatCompletionsUrl('https://ark.cn-beijing.volces.com/api/v3')).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions')
    expect(chatCompletionsUrl('https://relay.example/v1/chat/completions')).toBe('https://relay.example/v1/chat/completions')
  })

  it('reads the dashes an input method or a phone writes for -- as --, and leaves other dashes alone', () => {
    expect(normalizeDashes('一只猫 ——ar 16:9 —turbo')).toBe('一只猫 --ar 16:9 --turbo')
    expect(normalizeDashes('—no text －－fast –relax')).toBe('--no text --fast --relax')
    expect(speedsIn(splitPrompt(normalizeDashes('a cat —TURBO')).params)).toEqual(['turbo'])
    expect(normalizeDashes('a cat—dog, 1990—2000, — quiet')).toBe('a cat—dog, 1990—2000, — quiet')
  })
})
