import { describe, expect, it } from 'vitest'
import { adminCardKeys } from '@/lib/api-client/resources/admin-cards'
import { adminCustomModelKeys } from '@/lib/api-client/resources/admin-custom-models'
import { adminModelKeys } from '@/lib/api-client/resources/admin-models'
import { adminPromptKeys } from '@/lib/api-client/resources/admin-prompts'
import { adminSiteConfigKeys } from '@/lib/api-client/resources/admin-site-config'
import { adminTaskKeys } from '@/lib/api-client/resources/admin-tasks'
import { adminUserKeys } from '@/lib/api-client/resources/admin-users'
import { customModelKeys } from '@/lib/api-client/resources/custom-models'
import { ledgerKeys } from '@/lib/api-client/resources/ledger'
import { mjKeys } from '@/lib/api-client/resources/mj'
import { modelKeys } from '@/lib/api-client/resources/models'
import { myCardKeys } from '@/lib/api-client/resources/my-cards'
import { profileKeys } from '@/lib/api-client/resources/profile'
import { promptKeys } from '@/lib/api-client/resources/prompts'
import { siteInfoKeys } from '@/lib/api-client/resources/site-info'
import { taskKeys } from '@/lib/api-client/resources/tasks'
import { wechatKeys } from '@/lib/api-client/resources/wechat'
import { adminWallKeys } from '@/lib/api-client/resources/admin-wall'
import { wallKeys } from '@/lib/api-client/resources/wall'

// The query key factories of lib/api-client/resources: invalidating `xKeys.all` must reach
// every key of that resource and no other resource's (react-query matches keys by prefix).

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => JSON.stringify(key[i]) === JSON.stringify(part))

const params = { page: 2, pageSize: 20, keyword: 'k' }
const resources: Record<string, { all: readonly unknown[]; keys: (readonly unknown[])[] }> = {
  siteInfo: { all: siteInfoKeys.all, keys: [siteInfoKeys.all] },
  profile: { all: profileKeys.all, keys: [profileKeys.all] },
  tasks: { all: taskKeys.all, keys: [taskKeys.lists(), taskKeys.list(params), taskKeys.detail('t1')] },
  mj: { all: mjKeys.all, keys: [mjKeys.models(), mjKeys.trees(), mjKeys.treePage(params)] },
  models: { all: modelKeys.all, keys: [modelKeys.all] },
  prompts: { all: promptKeys.all, keys: [promptKeys.all] },
  customModels: { all: customModelKeys.all, keys: [customModelKeys.all] },
  myCards: { all: myCardKeys.all, keys: [myCardKeys.all] },
  ledger: { all: ledgerKeys.all, keys: [ledgerKeys.all] },
  wechat: { all: wechatKeys.all, keys: [wechatKeys.options(), wechatKeys.ticket('abc')] },
  adminUsers: { all: adminUserKeys.all, keys: [adminUserKeys.list(params)] },
  adminTasks: { all: adminTaskKeys.all, keys: [adminTaskKeys.list(params), adminTaskKeys.detail('t1')] },
  adminCards: { all: adminCardKeys.all, keys: [adminCardKeys.list(params), adminCardKeys.batches()] },
  adminModels: { all: adminModelKeys.all, keys: [adminModelKeys.list(), adminModelKeys.test('m1')] },
  adminPrompts: { all: adminPromptKeys.all, keys: [adminPromptKeys.all] },
  adminCustomModels: { all: adminCustomModelKeys.all, keys: [adminCustomModelKeys.all] },
  adminSiteConfig: { all: adminSiteConfigKeys.all, keys: [adminSiteConfigKeys.all] },
  wall: { all: wallKeys.all, keys: [wallKeys.list({ sort: 'new' }, false), wallKeys.featured(12, true), wallKeys.work('w1'), wallKeys.showcases()] },
  adminWall: { all: adminWallKeys.all, keys: [adminWallKeys.list({ page: 1, pageSize: 20, status: 'PENDING' }), adminWallKeys.showcases()] },
}

describe('query key factories', () => {
  it.each(Object.entries(resources))('%s: every key starts with its .all', (_name, { all, keys }) => {
    for (const key of keys) expect(startsWith(key, all), JSON.stringify(key)).toBe(true)
  })

  it('no resource’s .all reaches another resource’s keys', () => {
    for (const [name, { all }] of Object.entries(resources)) {
      for (const [other, { keys }] of Object.entries(resources)) {
        if (other === name) continue
        for (const key of keys) expect(startsWith(key, all), `${name} reaches ${other}: ${JSON.stringify(key)}`).toBe(false)
      }
    }
  })

  it('a list key carries its params, so each page and filter is its own cache entry', () => {
    expect(adminUserKeys.list(params)).toEqual(['admin-users', 'list', params])
    expect(adminUserKeys.list(params)).not.toEqual(adminUserKeys.list({ ...params, page: 3 }))
    expect(taskKeys.list(params)).toEqual(['tasks', 'list', params])
  })

  it('list prefixes leave details alone: refreshing the task lists does not refetch an open task', () => {
    expect(startsWith(taskKeys.detail('t1'), taskKeys.lists())).toBe(false)
    expect(startsWith(taskKeys.list(params), taskKeys.lists())).toBe(true)
    expect(startsWith(mjKeys.models(), mjKeys.trees())).toBe(false)
    expect(startsWith(wallKeys.work('w1'), wallKeys.lists())).toBe(false)
    expect(startsWith(wallKeys.list({ sort: 'hot' }, true), wallKeys.lists())).toBe(true)
  })
})
