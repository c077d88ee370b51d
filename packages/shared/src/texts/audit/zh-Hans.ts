/** Simplified Chinese: the audit log's action and subject names (issue 30; the console mounts them under `auditAdmin`, the audit export writes `action_name`). */
import type { AuditTexts } from '../types';

export default {
  actions: {
    user: {
      register: '注册',
      profile_update: '修改资料',
      password_change: '修改密码',
      approve: '通过注册',
      reject: '拒绝注册',
      suspend: '停用账号',
      reactivate: '恢复账号',
      password_reset_link: '生成重置密码链接',
      password_reset: '通过链接设置密码',
      email_requested: '已向邮箱发送验证链接',
      email_verified: '邮箱地址已验证',
    },
    session: {
      sign_in: '登录',
      sign_out: '退出登录',
      revoke: '退出某台设备',
      revoke_all: '退出全部设备',
    },
    staff: {
      create: '添加员工',
      invite: '生成员工邀请链接',
      update: '修改员工',
    },
    settings: {
      update: '修改设置',
    },
    crypto: {
      rotate_key: '轮换加密密钥',
    },
    api_key: {
      create: '创建 API 密钥',
      revoke: '吊销 API 密钥',
    },
    webhook: {
      create: '添加 Webhook 端点',
      update: '修改 Webhook 端点',
      rotate_secret: '轮换 Webhook 密钥',
      delete: '删除 Webhook 端点',
      test: '发送 Webhook 测试',
      retry: '重试 Webhook 投递',
    },
    integration: {
      stripe_secret: '设置 Stripe 签名密钥',
    },
    campaign: {
      create: '创建活动',
      update: '修改活动',
      activate: '启动活动',
      pause: '暂停活动',
      end: '结束活动',
      rewards: '奖励规则已修改',
      image_add: '添加活动图片',
      image_remove: '移除活动图片',
    },
    announcement: {
      create: '创建公告',
      update: '修改公告',
      publish: '发布公告',
      archive: '归档公告',
      delete: '删除公告',
    },
    enrollment: {
      approve: '通过参与申请',
      reject: '拒绝参与申请',
      coupon: '设置优惠码',
    },
    commission: {
      approve: '通过佣金',
      reject: '拒绝佣金',
      reverse: '扣回佣金',
    },
    conversion: {
      assign: '将转化指派给推广员',
    },
    binding: {
      end: '结束客户归属',
      move: '将客户归属转给其他推广员',
    },
    promoter: {
      adjust: '手动调整',
      export: '导出推广员',
      group: '已移至其他分组',
    },
    payout_account: {
      add: '添加收款账户',
      delete: '删除收款账户',
    },
    withdrawal: {
      requested: '申请提现',
      approved: '通过提现',
      paid: '提现已打款',
      failed: '提现打款失败',
      rejected: '拒绝提现',
      cancelled: '取消提现',
      export: '导出提现（银行批量）',
    },
    audit: {
      export: '导出审计日志',
    },
    group: {
      create: '已创建分组',
      update: '已修改分组',
      delete: '已删除分组',
      invite_code: '已生成新的分组邀请链接',
    },
    application_form: {
      update: '已修改申请问题',
    },
    bounty: {
      create: '创建悬赏',
      update: '修改悬赏',
    },
    bounty_submission: {
      approve: '悬赏凭证已通过',
      reject: '悬赏凭证已拒绝',
    },
  },
  entities: {
    user: '用户',
    session: '会话',
    settings: '设置',
    rsa_key: '加密密钥',
    api_key: 'API 密钥',
    webhook: 'Webhook 端点',
    campaign: '活动',
    announcement: '公告',
    enrollment: '参与申请',
    commission: '佣金',
    conversion: '转化',
    binding: '客户归属',
    payout_account: '收款账户',
    withdrawal: '提现',
    audit: '审计日志',
    promoter: '推广员',
    group: '推广员分组',
    bounty: '悬赏',
    bounty_submission: '悬赏凭证',
  },
} satisfies AuditTexts;
