import { BellOutlined } from '@ant-design/icons';
import { DATE_TIME_FORMAT, NOTICE_POPOVER_WIDTH } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Popover, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { markNoticesRead, type Notice } from '../api/notices';
import { useNotices } from '../app/queries';

/** The notice bell: the user's real notices with the unread count (not a sample). */
export function NoticeBell() {
  const { t } = useTranslation();
  const { data } = useNotices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const items = data?.items ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notices'] });

  const openNotice = async (n: Notice) => {
    if (!n.readAt) await markNoticesRead([n.id]).catch(() => undefined);
    void refresh();
    if (n.link?.startsWith('/')) {
      setOpen(false);
      navigate(n.link);
    }
  };

  const content = (
    <div style={{ width: NOTICE_POPOVER_WIDTH }} data-testid="notice-list">
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('header.noNotices')} />
      ) : (
        <List
          size="small"
          dataSource={items}
          style={{ maxHeight: 360, overflow: 'auto' }}
          renderItem={(n) => (
            <List.Item
              style={{ cursor: 'pointer', opacity: n.readAt ? 0.6 : 1 }}
              onClick={() => void openNotice(n)}
            >
              <List.Item.Meta
                title={
                  <Badge dot={!n.readAt} offset={[6, 0]}>
                    <Typography.Text strong={!n.readAt}>{n.title}</Typography.Text>
                  </Badge>
                }
                description={
                  <>
                    {n.body && <div>{n.body}</div>}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {dayjs(n.createdAt).format(DATE_TIME_FORMAT)}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
      {(data?.unread ?? 0) > 0 && (
        <div style={{ textAlign: 'center', borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
          <Button type="link" onClick={() => void markNoticesRead().then(refresh)}>
            {t('header.markAllRead')}
          </Button>
        </div>
      )}
    </div>
  );

  return (
    <Popover
      content={content}
      title={t('header.notices')}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
    >
      <button
        type="button"
        className="crdp-plain-button"
        data-testid="notice-bell"
        aria-label={t('header.notices')}
      >
        <Badge count={data?.unread ?? 0} size="small">
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      </button>
    </Popover>
  );
}
