import { Button, Toast } from 'antd-mobile';
import { DownlandOutline, UploadOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { appName } from '@/i18n';
import { inviteLink, trackedLink } from '@/lib/links';
import { useParams, useSearchParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { downloadBlob, shareNatively } from '@/lib/share';
import { useCampaign } from '../api/get-campaign';
import { useLink } from '../api/links';
import { canvasToPng, drawPoster, POSTER_HEIGHT, POSTER_WIDTH, type PosterContent, type TextBox } from '../lib/poster';

interface Template {
  id: string;
  url: string | null;
}

/** Draws the poster, shows it as an image (press and hold saves it in in-app browsers), saves and shares it. */
function PosterMaker({ content, templates, initialTemplate, filename, shareText }: { content: Omit<PosterContent, 'templateUrl'>; templates: Template[]; initialTemplate: string; filename: string; shareText: string }) {
  const { t } = useTranslation();
  const [templateId, setTemplateId] = useState(templates.some((x) => x.id === initialTemplate) ? initialTemplate : templates[0]!.id);
  const [png, setPng] = useState<{ blob: Blob; url: string; boxes: TextBox[] } | null>(null);
  const [failed, setFailed] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const templateUrl = templates.find((x) => x.id === templateId)?.url ?? null;
  const key = JSON.stringify({ ...content, templateUrl });

  useEffect(() => {
    let live = true;
    let made: string | null = null;
    const canvas = canvasRef.current ?? document.createElement('canvas');
    canvasRef.current = canvas;
    setFailed(false);
    drawPoster(canvas, { ...content, templateUrl })
      .then(async (boxes) => ({ boxes, blob: await canvasToPng(canvas) }))
      .then(({ boxes, blob }) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setPng({ blob, url: made, boxes });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
    // `key` stands for content + template.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const save = () => {
    if (!png) return;
    downloadBlob(png.blob, filename);
    Toast.show({ icon: 'success', content: t('poster.saved') });
  };
  const share = async () => {
    if (!png) return;
    const outcome = await shareNatively({ files: [new File([png.blob], filename, { type: 'image/png' })], text: shareText });
    if (outcome === 'unsupported') save();
  };

  return (
    <>
      {templates.length > 1 ? (
        <div className="template-picker" role="radiogroup" aria-label={t('poster.template')}>
          {templates.map((x, i) => (
            <button
              key={x.id}
              type="button"
              role="radio"
              aria-checked={x.id === templateId}
              className={`template-option${x.id === templateId ? ' selected' : ''}`}
              onClick={() => setTemplateId(x.id)}
              data-testid={`template-${x.id}`}
            >
              {x.url ? <img src={x.url} alt={t('poster.templateN', { n: i + 1 })} /> : <span className="template-plain">{t('poster.plain')}</span>}
            </button>
          ))}
        </div>
      ) : null}
      <div className="poster-preview">
        {failed ? <p className="page-error">{t('poster.failed')}</p> : png ? (
          // data-text-boxes: where each text was drawn, so that a check can hold it against the canvas.
          <img src={png.url} alt={t('poster.previewAlt')} width={POSTER_WIDTH} height={POSTER_HEIGHT} data-testid="poster-image" data-text-boxes={JSON.stringify(png.boxes)} />
        ) : <p className="poster-generating" role="status">{t('poster.generating')}</p>}
      </div>
      <p className="hint center">{t('poster.holdHint')}</p>
      <div className="button-row sticky-actions">
        <Button color="primary" fill="outline" disabled={!png} onClick={save} data-testid="poster-save"><DownlandOutline aria-hidden /> {t('poster.save')}</Button>
        <Button color="primary" disabled={!png} onClick={share} data-testid="poster-share"><UploadOutline aria-hidden /> {t('poster.share')}</Button>
      </div>
    </>
  );
}

function LinkPoster({ linkId }: { linkId: string }) {
  const { t, i18n } = useTranslation();
  const params = useSearchParams();
  const me = useMe();
  const link = useLink(linkId, i18n.language);
  const campaign = useCampaign(link.data?.campaignId ?? '', i18n.language);
  if (link.isPending || me.isPending || (link.data && campaign.isPending)) return <PageLoading />;
  if (link.isError || me.isError || campaign.isError) return <PageError error={link.error ?? me.error ?? campaign.error} onRetry={() => { void link.refetch(); void campaign.refetch(); }} />;
  const c = campaign.data!;
  const l = link.data;
  const templates: Template[] = [...c.posters.map((p) => ({ id: p.id, url: p.url })), { id: 'plain', url: null }];
  const url = trackedLink(l.code);
  return (
    <PosterMaker
      content={{ url, title: c.name, subtitle: c.description, name: me.data.displayName, cta: t('poster.ctaLink'), codeLine: t('poster.codeLine', { code: l.code }) }}
      templates={templates}
      initialTemplate={params.get('template') ?? ''}
      filename={`poster-${l.code}.png`}
      shareText={url}
    />
  );
}

function InvitePoster() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  if (me.isPending) return <PageLoading />;
  if (me.isError) return <PageError error={me.error} onRetry={() => me.refetch()} />;
  const url = inviteLink(me.data.inviteCode);
  const app = appName(i18n.language as Locale);
  return (
    <PosterMaker
      content={{ url, title: t('poster.inviteTitle', { app }), subtitle: t('poster.inviteSubtitle'), name: me.data.displayName, cta: t('poster.ctaInvite'), codeLine: t('poster.inviteCodeLine', { code: me.data.inviteCode }) }}
      templates={[{ id: 'plain', url: null }]}
      initialTemplate="plain"
      filename={`invite-${me.data.inviteCode}.png`}
      shareText={url}
    />
  );
}

export default function PosterPage() {
  const { t } = useTranslation();
  const { linkId = '' } = useParams();
  const invite = linkId === 'invite';
  return (
    <div className="sub-page poster-page">
      <PageNav title={invite ? t('poster.inviteNav') : t('poster.title')} fallback={invite ? '/team' : '/links'} />
      {invite ? <InvitePoster /> : <LinkPoster linkId={linkId} />}
    </div>
  );
}
