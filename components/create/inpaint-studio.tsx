'use client'

import { useRef, useState } from 'react'
import { useUploadPainted } from '@/lib/api-client/resources/uploads'
import { DenoiseField } from './denoise-field'
import { ImageUploadField, type Uploaded } from './image-upload-field'
import { MaskPainter, type MaskPainterHandle } from './mask-painter'
import { fitSize } from './sd-params'
import { SdStudio } from './sd-studio'

/** 局部重绘: upload a picture, paint the area to redraw, describe what goes there (SD_IMGINPAINT). */
export function InpaintStudio({ title }: { title?: string }) {
  const [image, setImage] = useState<Uploaded | null>(null)
  const [denoise, setDenoise] = useState(0.75)
  const painter = useRef<MaskPainterHandle>(null)
  const upload = useUploadPainted()

  async function params(): Promise<Record<string, unknown> | string> {
    if (!image) return '请先上传图片'
    const mask = await painter.current?.exportMask()
    if (!mask) return '请在图片上涂抹需要重绘的区域'
    const uploaded = await upload.send(mask)
    return {
      initImageId: image.id,
      maskImageId: uploaded.id,
      denoisingStrength: denoise,
      ...fitSize(image.width, image.height, Math.min(1024, Math.max(image.width, image.height))),
    }
  }

  const fields = (
    <div className="space-y-4">
      <ImageUploadField label="原图" hint="上传要修改的图片，最大 10MB" value={image} onChange={setImage} />
      {image && <MaskPainter key={image.id} ref={painter} imageUrl={image.url} width={image.width} height={image.height} />}
      <DenoiseField id="denoise" value={denoise} onChange={setDenoise} min={0.2} help="越大变化越多，越小越接近原图" />
    </div>
  )

  return (
    <SdStudio
      title={title}
      type="SD_IMGINPAINT"
      extraFields={fields}
      extraParams={params}
      showSize={false}
      placeholder="重绘后的图片会显示在这里，可与左侧原图对比"
    />
  )
}
