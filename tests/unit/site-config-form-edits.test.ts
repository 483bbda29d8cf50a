import { describe, expect, it } from 'vitest'
import { changedItems, saveOrder, shownValue, withoutSaved, type Edits } from '@/components/admin/site-config/config-edits'
import type { ConfigItemView } from '@/components/admin/site-config/site-config-editor'
import { at } from '../helpers/present'

const item = (
  name: string,
  type: ConfigItemView['type'],
  value: ConfigItemView['value'],
  visibility: ConfigItemView['visibility'] = 'admin',
): ConfigItemView => ({
  name,
  group: '短信',
  label: name,
  help: null,
  type,
  visibility,
  value,
  isSet: value !== '',
})

describe('the site config editor’s edits', () => {
  it('show the server’s value until a field is edited, and count only real changes', () => {
    const items = [item('SMS_PROVIDER', 'string', 'log'), item('SMS_LOGIN_ENABLED', 'boolean', false)]
    const edits: Edits = { SMS_PROVIDER: 'log', SMS_LOGIN_ENABLED: true }
    expect(shownValue(at(items, 0), {})).toBe('log')
    expect(shownValue(at(items, 1), edits)).toBe(true)
    expect(changedItems(items, edits).map((i) => i.name)).toEqual(['SMS_LOGIN_ENABLED'])
  })

  it('after a save, a secret shows the server’s masked value, not the text typed, and nothing is left unsaved', () => {
    const typed = 'sk-the-real-secret-1234abcd'
    const before = [item('TRANSLATE_API_KEY', 'string', '', 'secret'), item('TRANSLATE_MODEL', 'string', 'gpt-4o-mini')]
    const edits: Edits = { TRANSLATE_API_KEY: typed, TRANSLATE_MODEL: 'gpt-4.1' }
    // Saving TRANSLATE_API_KEY worked, TRANSLATE_MODEL failed: only the saved one leaves the form.
    const after = withoutSaved(edits, ['TRANSLATE_API_KEY'])
    const reloaded = [item('TRANSLATE_API_KEY', 'string', '••••abcd', 'secret'), at(before, 1)]
    expect(shownValue(at(reloaded, 0), after)).toBe('••••abcd')
    expect(Object.values(after)).not.toContain(typed)
    expect(changedItems(reloaded, after).map((i) => i.name)).toEqual(['TRANSLATE_MODEL'])
    expect(changedItems(reloaded, withoutSaved(after, ['TRANSLATE_MODEL']))).toEqual([])
  })

  it('saves switches turned off first and switches turned on last', () => {
    const items = [
      item('SMS_LOGIN_ENABLED', 'boolean', false),
      item('SMS_PROVIDER', 'string', 'log'),
      item('MOBILE_ENABLED', 'boolean', true),
      item('ALIYUN_SMS_SIGN_NAME', 'string', ''),
    ]
    const edits: Edits = { SMS_LOGIN_ENABLED: true, SMS_PROVIDER: 'aliyun', MOBILE_ENABLED: false, ALIYUN_SMS_SIGN_NAME: 'AI画室' }
    expect(saveOrder(changedItems(items, edits), edits).map((i) => i.name)).toEqual([
      'MOBILE_ENABLED',
      'SMS_PROVIDER',
      'ALIYUN_SMS_SIGN_NAME',
      'SMS_LOGIN_ENABLED',
    ])
  })
})
