/**
 * The `size` values DashScope's Wan text-to-video accepts (width*height), by resolution and
 * ratio: the list is fixed (a computed 720*720 or 854*480 is refused), and 21:9 is not on it.
 */
const WAN_SIZES: Record<string, Record<string, string>> = {
  '480p': { '16:9': '832*480', '9:16': '480*832', '1:1': '624*624' },
  '720p': { '16:9': '1280*720', '9:16': '720*1280', '1:1': '960*960', '4:3': '1088*832', '3:4': '832*1088' },
  '1080p': { '16:9': '1920*1080', '9:16': '1080*1920', '1:1': '1440*1440', '4:3': '1632*1248', '3:4': '1248*1632' },
}

/** Wan's size for a ratio at a resolution, or null when Wan has none (the task is refused before it is sent). */
export function wanSize(ratio: string, resolution: string): string | null {
  return WAN_SIZES[resolution.toLowerCase()]?.[ratio] ?? null
}
