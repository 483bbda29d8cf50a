'use client'

import { useState } from 'react'
import { DenoiseField } from './denoise-field'
import { ImageUploadField, type Uploaded } from './image-upload-field'
import { fitSize } from './sd-params'
import { SdStudio } from './sd-studio'

/** 图生图: start from an uploaded picture, describe what it becomes (SD_IMG2IMG). */
export function Img2ImgStudio({ title }: { title?: string }) {
  const [image, setImage] = useState<Uploaded | null>(null)
  const [denoise, setDenoise] = useState(0.6)

  const fields = (
    <div className="space-y-4">
      <ImageUploadField label="参考图" hint="以这张图片为起点生成，最大 10MB" value={image} onChange={setImage} />
      <DenoiseField id="img2img-denoise" value={denoise} onChange={setDenoise} min={0.1} help="越大越按提示词变化，越小越接近参考图" />
    </div>
  )

  return (
    <SdStudio
      title={title}
      type="SD_IMG2IMG"
      extraFields={fields}
      showSize={false}
      extraParams={() => (image ? { initImageId: image.id, denoisingStrength: denoise, ...fitSize(image.width, image.height) } : '请先上传参考图')}
      placeholder="上传参考图并描述想要的画面，生成的图片会显示在这里"
    />
  )
}
