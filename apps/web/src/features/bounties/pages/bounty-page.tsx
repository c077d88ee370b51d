/**
 * `#/bounties/:id` (promoters): one bounty; for a submission bounty, the state of the latest proof
 * and the form to send proof — words, an optional link and an optional image.
 */
import { Button, Toast } from 'antd-mobile';
import { CloseOutline, PictureOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromoterBounty } from '@pa/shared';
import { Field, TextInput } from '@/components/field';
import { TextArea } from '@/components/text-area';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useParams } from '@/lib/hash-router';
import { shrinkImage } from '@/lib/shrink-image';
import { useBounties, useSubmitProof, useUploadBountyImage } from '../api/bounties';
import { BountyCard } from '../components/bounty-card';
import { PROOF_TEXT_MAX, toProofBody, type ProofErrors } from '../lib/submission-form';
import '../bounties.css';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 2 * 1024 * 1024;

function ProofForm({ bounty }: { bounty: PromoterBounty }) {
  const { t, i18n } = useTranslation();
  const submit = useSubmitProof(bounty.id);
  const upload = useUploadBountyImage(bounty.id);
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [image, setImage] = useState<{ id: string; preview: string } | null>(null);
  const [errors, setErrors] = useState<ProofErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => { if (image) URL.revokeObjectURL(image.preview); }, [image]);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!TYPES.includes(file.type)) return void Toast.show({ content: t('bounties.form.imageType') });
    const fitted = await shrinkImage(file, MAX_BYTES);
    if (!fitted) return void Toast.show({ content: t('bounties.form.imageTooLarge', { size: formatNumber(Math.ceil((file.size / 1024 / 1024) * 10) / 10, i18n.language) }) });
    try {
      const saved = await upload.mutateAsync(fitted);
      setImage({ id: saved.id, preview: URL.createObjectURL(fitted) });
    } catch (error) {
      Toast.show({ content: error instanceof ApiError && error.fields.image ? t('bounties.form.imageUnreadable') : errorText(t, error) });
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (submit.isPending || upload.isPending) return;
    const result = toProofBody({ text, url, imageId: image?.id ?? null });
    if (result.errors) return setErrors(result.errors);
    try {
      await submit.mutateAsync(result.body);
      Toast.show({ icon: 'success', content: t('bounties.form.sent') });
      setText('');
      setUrl('');
      setImage(null);
    } catch (error) {
      setFormError(errorText(t, error));
      if (error instanceof ApiError) setErrors({ ...(error.fields.text ? { text: 'required' as const } : {}), ...(error.fields.url ? { url: 'url' as const } : {}) });
    }
  };

  const textError = errors.text ? t(`bounties.form.textError.${errors.text}`, { max: PROOF_TEXT_MAX }) : undefined;
  return (
    <form className="card bounty-proof-form" onSubmit={onSubmit} noValidate aria-labelledby="proof-title" data-testid="proof-form">
      <h2 id="proof-title">{bounty.submission?.status === 'rejected' ? t('bounties.form.titleAgain') : t('bounties.form.title')}</h2>
      {formError ? <p className="form-error" role="alert" data-testid="proof-error">{formError}</p> : null}
      <Field id="proof-text" label={t('bounties.form.text')} errorText={textError} help={t('bounties.form.textHelp')}>
        <TextArea id="proof-text" data-testid="proof-text" rows={4} value={text} maxLength={PROOF_TEXT_MAX} invalid={!!errors.text}
          onChange={(v) => {
            setText(v);
            if (errors.text) setErrors((e) => ({ ...e, text: undefined }));
          }}
        />
      </Field>
      <Field id="proof-url" label={t('bounties.form.url')} errorText={errors.url ? t('bounties.form.urlError') : undefined} help={t('bounties.form.urlHelp')}>
        <TextInput id="proof-url" data-testid="proof-url" type="url" inputMode="url" autoCapitalize="off" autoComplete="off" spellCheck={false} placeholder="https://" value={url} invalid={!!errors.url}
          onChange={(v) => {
            setUrl(v);
            if (errors.url) setErrors((e) => ({ ...e, url: undefined }));
          }}
        />
      </Field>
      <div className="field">
        <span className="field-label">{t('bounties.form.image')}</span>
        {image ? (
          <div className="proof-image">
            <img src={image.preview} alt={t('bounties.form.imageChosen')} />
            <button type="button" className="proof-image-remove" onClick={() => setImage(null)} aria-label={t('bounties.form.imageRemove')} data-testid="proof-image-remove">
              <CloseOutline aria-hidden />
            </button>
          </div>
        ) : (
          <Button block fill="outline" className="proof-image-add" loading={upload.isPending} onClick={() => input.current?.click()} data-testid="proof-image-add">
            <PictureOutline aria-hidden /> {t('bounties.form.imageAdd')}
          </Button>
        )}
        <input ref={input} type="file" accept={TYPES.join(',')} hidden onChange={(e) => void onFile(e)} data-testid="proof-image-input" />
        <p className="field-help">{t('bounties.form.imageHelp')}</p>
      </div>
      <Button block type="submit" color="primary" size="large" loading={submit.isPending} disabled={upload.isPending} data-testid="proof-submit">{t('bounties.form.submit')}</Button>
    </form>
  );
}

export default function BountyPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const bounties = useBounties(i18n.language);
  const bounty = bounties.data?.items.find((b) => b.id === id);
  return (
    <div className="sub-page bounty-page">
      <PageNav title={bounty?.name ?? t('bounties.title')} fallback="/bounties" />
      {bounties.isPending ? <PageLoading /> : bounties.isError ? <PageError error={bounties.error} onRetry={() => void bounties.refetch()} /> : !bounty ? (
        <EmptyState title={t('bounties.goneTitle')} body={t('bounties.goneBody')} />
      ) : (
        <>
          <BountyCard bounty={bounty} currency={bounties.data.currency} open />
          {bounty.kind === 'submission' && !bounty.earned && bounty.submission?.status !== 'pending' ? <ProofForm bounty={bounty} /> : null}
          {bounty.kind === 'submission' && bounty.submission?.status === 'pending' ? <p className="bounties-lead">{t('bounties.pendingHint')}</p> : null}
        </>
      )}
    </div>
  );
}
