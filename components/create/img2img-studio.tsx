'use client'

import { useState } from 'react'
import { Field } from '@/components/ui/field'
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
      <Field label={`重绘幅度：${denoise.toFixed(2)}`} htmlFor="img2img-denoise" help="越大越按提示词变化，越小越接近参考图">
        <input
          id="img2img-denoise"
          type="range"
          min={0.1}
          max={1}
          step={0.05}
          value={denoise}
          onChange={(e) => setDenoise(Number(e.target.value))}
          className="w-full accent-brand-500"
        />
      </Field>
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
