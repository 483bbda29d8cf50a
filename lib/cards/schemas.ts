import { z } from '@/lib/zod'
import { zSerialId, zSerialIdNumber } from '@/lib/http/params'
import { MAX_KEY_LENGTH } from './card-key'

/** One import request takes at most this many keys (a 10,000-key batch in one go). */
export const MAX_CARDS_PER_IMPORT = 10_000

export const ZCardImportSchema = z
  .object({
    cards: z
      .array(z.string({ error: '卡密必须是字符串' }), { error: 'cards 必须是卡密列表' })
      .min(1, '请输入卡密')
      .max(MAX_CARDS_PER_IMPORT, `一次最多导入 ${MAX_CARDS_PER_IMPORT} 个卡密`)
      .superRefine((cards, ctx) => {
        for (const [i, card] of cards.entries()) {
          const key = card.trim()
          if (!key) return void ctx.addIssue({ code: 'custom', message: `第 ${i + 1} 个卡密为空` })
          if ([...key].length > MAX_KEY_LENGTH) return void ctx.addIssue({ code: 'custom', message: `第 ${i + 1} 个卡密超过 ${MAX_KEY_LENGTH} 个字符` })
        }
      }),
    points: z.number().int('积分必须是整数').min(1, '每张卡的积分至少为 1').max(1_000_000).optional(),
    note: z.string().trim().max(100, '备注最多 100 个字符').optional(),
    /** An ISO time still ahead (null or absent: never expires). */
    expiresAt: z.iso
      .datetime({ offset: true, error: '过期时间格式不正确' })
      .nullish()
      .transform((v) => (v ? new Date(v) : undefined))
      .refine((v) => !v || v.getTime() > Date.now(), '过期时间必须晚于现在'),
  })
  .strict()
export type TCardImport = z.infer<typeof ZCardImportSchema>

export const ZCardListQuerySchema = z.object({
  status: z.enum(['PENDING', 'SUCCESS', 'FAIL']).optional(),
  keyword: z.string().trim().max(32).optional(),
  batchId: zSerialId().optional(),
})

export const ZRedeemSchema = z.union(
  [z.object({ cardKey: z.string().trim().min(1, '请输入卡密').max(MAX_KEY_LENGTH, '卡密不存在') }).strict(), z.object({ cardId: zSerialIdNumber() }).strict()],
  { error: '请输入卡密' },
)
export type TRedeem = z.infer<typeof ZRedeemSchema>
