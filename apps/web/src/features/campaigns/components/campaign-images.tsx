import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline, CloseOutline, PictureOutline } from 'antd-mobile-icons';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCampaign, Image } from '@pa/shared';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useRemoveImage, useUploadImage, type ImageKind } from '../api/console-campaigns';
import { shrinkImage } from '@/lib/shrink-image';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 2 * 1024 * 1024;

/** Cover and poster templates; each upload or removal is saved at once. */
export function CampaignImages({ campaign, canEdit }: { campaign: AdminCampaign; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const upload = useUploadImage(campaign.id);
  const remove = useRemoveImage(campaign.id);
  const coverInput = useRef<HTMLInputElement>(null);
  const posterInput = useRef<HTMLInputElement>(null);

  const onFile = (kind: ImageKind) => async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be picked again
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      Toast.show({ content: t('campaignAdmin.images.wrongType') });
      return;
    }
    // Over 2 MB: made smaller here (a canvas) rather than refused; refused only if that fails.
    const fitted = await shrinkImage(file, MAX_BYTES);
    if (!fitted) {
      Toast.show({ content: t('campaignAdmin.images.tooLarge', { size: formatNumber(Math.ceil((file.size / 1024 / 1024) * 10) / 10, i18n.language) }) });
      return;
    }
    try {
      await upload.mutateAsync({ kind, file: fitted });
      Toast.show({ icon: 'success', content: t(kind === 'cover' ? 'campaignAdmin.images.coverDone' : 'campaignAdmin.images.posterDone') });
    } catch (error) {
      const unreadable = error instanceof ApiError && error.fields.image;
      Toast.show({ content: unreadable ? t('campaignAdmin.images.unreadable') : errorText(t, error) });
    }
  };

  const onRemove = async (image: Image, kind: ImageKind) => {
    const confirmed = await Dialog.confirm({
      content: t(kind === 'cover' ? 'campaignAdmin.images.confirmRemoveCover' : 'campaignAdmin.images.confirmRemovePoster'),
      confirmText: t('campaignAdmin.images.remove'),
      cancelText: t('app.cancel'),
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(image.id);
      Toast.show({ icon: 'success', content: t('campaignAdmin.images.removed') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const uploading = (kind: ImageKind) => upload.isPending && upload.variables?.kind === kind;
  const size = (image: Image) => `${image.width} × ${image.height}`;

  return (
    <section className="card console-images">
      <h2>{t('campaignAdmin.images.title')}</h2>
      <input ref={coverInput} type="file" accept={TYPES.join(',')} hidden onChange={onFile('cover')} data-testid="cover-input" />
      <input ref={posterInput} type="file" accept={TYPES.join(',')} hidden onChange={onFile('poster')} data-testid="poster-input" />

      <h3 className="console-images-label">{t('campaignAdmin.images.cover')}</h3>
      {campaign.cover ? (
        <figure className="console-cover-preview">
          <img src={campaign.cover.url} alt={t('campaignAdmin.images.cover')} width={campaign.cover.width} height={campaign.cover.height} data-testid="cover-image" />
          <figcaption>{size(campaign.cover)}</figcaption>
        </figure>
      ) : (
        <div className="console-cover-empty"><PictureOutline aria-hidden /> {t('campaignAdmin.images.noCover')}</div>
      )}
      {canEdit ? (
        <div className="console-images-actions">
          <Button size="small" color="primary" fill="outline" loading={uploading('cover')} onClick={() => coverInput.current?.click()} data-testid="upload-cover">
            {campaign.cover ? t('campaignAdmin.images.replaceCover') : t('campaignAdmin.images.uploadCover')}
          </Button>
          {campaign.cover ? (
            <Button size="small" color="danger" fill="none" onClick={() => void onRemove(campaign.cover!, 'cover')} data-testid="remove-cover">
              {t('campaignAdmin.images.remove')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <p className="hint">{t('campaignAdmin.images.coverHint')}</p>

      <h3 className="console-images-label">{t('campaignAdmin.images.posters')}</h3>
      <ul className="console-posters" data-testid="poster-grid">
        {campaign.posters.map((p) => (
          <li key={p.id} className="console-poster" data-testid={`poster-${p.id}`}>
            <img src={p.url} alt={t('campaignAdmin.images.poster')} width={p.width} height={p.height} loading="lazy" />
            <span className="console-poster-size">{size(p)}</span>
            {canEdit ? (
              <button type="button" className="console-poster-remove" aria-label={t('campaignAdmin.images.remove')} onClick={() => void onRemove(p, 'poster')} data-testid={`remove-poster-${p.id}`}>
                <CloseOutline aria-hidden />
              </button>
            ) : null}
          </li>
        ))}
        {canEdit ? (
          <li>
            <button type="button" className="console-poster-add" disabled={uploading('poster')} onClick={() => posterInput.current?.click()} data-testid="add-poster">
              <AddOutline aria-hidden />
              <span>{uploading('poster') ? t('campaignAdmin.images.uploading') : t('campaignAdmin.images.addPoster')}</span>
            </button>
          </li>
        ) : null}
      </ul>
      {!canEdit && campaign.posters.length === 0 ? <p className="hint">{t('campaignAdmin.images.noPosters')}</p> : null}
      <p className="hint">{t('campaignAdmin.images.posterHint')}</p>
    </section>
  );
}
