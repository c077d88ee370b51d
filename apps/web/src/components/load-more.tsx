import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** "Load more" under a paged list (TanStack infinite query), shown while there is a next page. */
export function LoadMore({ query }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> } }) {
  const { t } = useTranslation();
  if (!query.hasNextPage) return null;
  return (
    <div className="load-more">
      <Button size="small" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} data-testid="load-more">{t('app.loadMore')}</Button>
    </div>
  );
}
