import { QueryClient, keepPreviousData } from '@tanstack/react-query'

/** docs/PRODUCT.md §9: no refetch on focus, no retry, cache time 0, keep previous data while loading. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: false, gcTime: 0, placeholderData: keepPreviousData },
      mutations: { retry: false },
    },
  })
}

/** Query keys, in one place so invalidation finds them. */
export const queryKeys = {
  siteInfo: ['site-info'] as const,
  profile: ['profile'] as const,
  adminUsers: (params: object) => ['admin', 'users', params] as const,
  adminSiteConfig: ['admin', 'site-config'] as const,
  adminCards: (params: object) => ['admin', 'cards', params] as const,
  cardBatches: ['admin', 'card-batches'] as const,
  adminModels: ['admin', 'models'] as const,
  adminModelTest: (id: string) => ['admin', 'model-test', id] as const,
  adminCustomModels: ['admin', 'custom-models'] as const,
  adminPrompts: ['admin', 'prompts'] as const,
  adminTasks: (params: object) => ['admin', 'tasks', params] as const,
  adminTask: (id: string) => ['admin', 'task', id] as const,
  myCards: ['my-cards'] as const,
  ledger: ['ledger'] as const,
  models: ['models'] as const,
  prompts: ['prompts'] as const,
  customModels: ['custom-models'] as const,
  myTasks: (params: object) => ['my-tasks', params] as const,
  task: (id: string) => ['task', id] as const,
  mjModels: ['mj-models'] as const,
  mjTasks: (params: object) => ['mj-tasks', params] as const,
  wechatOptions: ['wechat-options'] as const,
  loginTicket: (id: string) => ['login-ticket', id] as const,
}
