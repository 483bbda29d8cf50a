/**
 * How request fields read to a person, for validation messages that do not say which
 * field they are about (zod's generic ones). Schemas with their own Chinese messages
 * never need these.
 */
export const FIELD_LABELS: Record<string, string> = {
  username: '用户名',
  password: '密码',
  currentPassword: '当前密码',
  newPassword: '新密码',
  name: '昵称',
  mobile: '手机号',
  code: '验证码',
  purpose: '验证码用途',
  agreeTerms: '用户协议同意项',
  role: '角色',
  banned: '禁用状态',
  keyword: '关键词',
  page: '页码',
  pageSize: '每页条数',
  status: '状态',
  type: '类型',
  types: '类型',
  modelId: '模型',
  prompt: '提示词',
  negativePrompt: '反向提示词',
  width: '宽度',
  height: '高度',
  steps: '采样步数',
  cfgScale: '提示词相关性（CFG）',
  seed: '随机种子',
  sampler: '采样器',
  count: '生成数量',
  denoisingStrength: '重绘幅度',
  controlWeight: '线条约束强度',
  lineStyle: '线稿类型',
  customModelId: '风格模型',
  sourceTaskId: '原作品',
  points: '积分',
  balance: '余额',
  amount: '数额',
  note: '备注',
  reason: '原因',
  cards: '卡密',
  cardKey: '卡密',
  cardId: '卡密',
  userId: '用户 ID',
  disabled: '停用状态',
  requestId: '请求编号',
  limit: '条数',
  cursor: '翻页位置',
  batchId: '批次',
  expiresAt: '过期时间',
  value: '配置值',
  sort: '排序',
  enabled: '启用状态',
  title: '标题',
  category: '分类',
  cover: '封面',
}

/** The label of the field an issue is about (the last named step of its path), if one is known. */
export function fieldLabel(path: readonly PropertyKey[]): string | null {
  const key = [...path].reverse().find((step): step is string => typeof step === 'string')
  return (key && FIELD_LABELS[key]) || null
}
