/** The ratios a clip can have (width:height), shared by the model options, the form and the adapters. */
export const VIDEO_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'] as const
