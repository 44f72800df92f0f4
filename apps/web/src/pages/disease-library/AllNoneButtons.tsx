import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIBRARY_NS } from './i18n';

/** 全选 and 全不选 for the indicators of a library (what is exported, what may be searched on). */
export function AllNoneButtons({ keys, onChoose }: { keys: string[]; onChoose: (keys: string[]) => void }) {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <>
      <Button size="small" onClick={() => onChoose(keys)}>
        {t('retrieval.all')}
      </Button>
      <Button size="small" onClick={() => onChoose([])}>
        {t('retrieval.none')}
      </Button>
    </>
  );
}
