/**
 * French: what only the server writes — mails, its small HTML pages, the values of its CSV exports, the webhook test event
 * (issue 30). i18next's format, like every entry of the catalogue: `{{name}}` placeholders, counted
 * phrases as `<name>_<plural category>` keys chosen by Intl.PluralRules.
 */
import type { ServerTexts } from '../types';

export default {
  mail: {
    test: {
      subject: 'Message de test de {{app}}',
      body: ['Bonjour,', 'Ceci est un message de test de {{app}}. Si vous le lisez, l’e-mail fonctionne.'],
    },
    staff_invite: {
      subject: 'Vous êtes invité à la console {{app}}',
      body: [
        'Bonjour {{name}},',
        'Vous avez été invité à la console {{app}}. Définissez votre mot de passe avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.',
      ],
      action: 'Définir mon mot de passe',
    },
    password_reset: {
      subject: 'Définissez un nouveau mot de passe {{app}}',
      body: [
        'Bonjour {{name}},',
        'Un lien pour définir un nouveau mot de passe de votre compte {{app}} a été créé pour vous. Votre mot de passe actuel reste valable tant que vous n’en avez pas défini un nouveau avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.',
      ],
      action: 'Définir un nouveau mot de passe',
    },
    forgot_password: {
      subject: 'Réinitialisez votre mot de passe {{app}}',
      body: [
        'Bonjour {{name}},',
        'Quelqu’un a demandé à réinitialiser le mot de passe de votre compte {{app}}. Si c’est vous, choisissez-en un nouveau avec le lien ci-dessous ; il fonctionne une fois, pendant 30 minutes.',
        'Si ce n’est pas vous, ignorez ce message : votre mot de passe ne change pas.',
      ],
      action: 'Réinitialiser mon mot de passe',
    },
    verify_email: {
      subject: 'Confirmez votre adresse e-mail pour {{app}}',
      body: [
        'Bonjour {{name}},',
        'Vous avez ajouté cette adresse à votre compte {{app}}. Confirmez-la avec le lien ci-dessous ; il fonctionne une fois, pendant 24 heures. Ensuite, vos e-mails et liens de réinitialisation du mot de passe arriveront ici.',
        'Si ce n’est pas vous, ignorez ce message : l’adresse ne sera pas ajoutée.',
      ],
      action: 'Confirmer mon adresse',
    },
    registration_approved: {
      subject: 'Bienvenue sur {{app}} : votre compte est approuvé',
      body: [
        'Bonjour {{name}},',
        'Votre inscription a été approuvée. Vous pouvez vous connecter et commencer à partager vos liens.',
      ],
      action: 'Ouvrir {{app}}',
    },
    registration_rejected: {
      subject: 'Votre inscription à {{app}}',
      body: [
        'Bonjour {{name}},',
        'Nous sommes désolés : votre inscription n’a pas été approuvée. Si vous pensez qu’il s’agit d’une erreur, répondez à la personne qui vous a invité.',
      ],
    },
    commission_digest: {
      subject: '{{count}} le {{day}}',
      body: [
        'Bonjour {{name}},',
        'Le {{day}} : {{count}}, {{total}} au total. Le montant s’ajoute à votre solde disponible.',
      ],
      action: 'Voir mes commissions',
      counted: {
        count_one: '{{count}} commission approuvée',
        count_many: '{{count}} de commissions approuvées',
        count_other: '{{count}} commissions approuvées',
      },
    },
    withdrawal_paid: {
      subject: 'Votre retrait est payé : {{net}}',
      body: [
        'Bonjour {{name}},',
        '{{net}} a été versé sur votre compte {{account}} : votre retrait de {{amount}}, moins des frais de {{fee}}.',
        'Référence du versement : {{reference}}',
      ],
      action: 'Voir le retrait',
    },
    withdrawal_failed: {
      subject: 'Votre retrait de {{amount}} n’a pas pu être payé',
      body: [
        'Bonjour {{name}},',
        'Le paiement de votre retrait de {{amount}} a échoué : {{reason}}. Le montant est revenu sur votre solde disponible ; vérifiez votre compte de paiement et refaites le retrait.',
      ],
      action: 'Voir le retrait',
    },
    withdrawal_rejected: {
      subject: 'Votre retrait de {{amount}} a été refusé',
      body: [
        'Bonjour {{name}},',
        'Votre retrait de {{amount}} a été refusé : {{reason}}. Le montant est revenu sur votre solde disponible.',
      ],
      action: 'Voir le retrait',
    },
    work_queue_summary: {
      subject: '{{app}} : {{total}} une revue',
      body: [
        'Bonjour {{name}},',
        'En attente de l’équipe ce matin : {{registrations}}, {{enrollments}}, {{commissions}}, {{withdrawalsToApprove}} et {{withdrawalsToPay}}.',
      ],
      action: 'Ouvrir la console',
      counted: {
        total_one: '{{count}} élément attend',
        total_many: '{{count}} d’éléments attendent',
        total_other: '{{count}} éléments attendent',
        registrations_one: '{{count}} inscription',
        registrations_many: '{{count}} d’inscriptions',
        registrations_other: '{{count}} inscriptions',
        enrollments_one: '{{count}} candidature à une campagne',
        enrollments_many: '{{count}} de candidatures aux campagnes',
        enrollments_other: '{{count}} candidatures aux campagnes',
        commissions_one: '{{count}} commission à valider',
        commissions_many: '{{count}} de commissions à valider',
        commissions_other: '{{count}} commissions à valider',
        withdrawalsToApprove_one: '{{count}} retrait à approuver',
        withdrawalsToApprove_many: '{{count}} de retraits à approuver',
        withdrawalsToApprove_other: '{{count}} retraits à approuver',
        withdrawalsToPay_one: '{{count}} retrait à payer',
        withdrawalsToPay_many: '{{count}} de retraits à payer',
        withdrawalsToPay_other: '{{count}} retraits à payer',
      },
    },
    webhook_disabled: {
      subject: '{{app}} : un point de terminaison webhook a été désactivé',
      body: [
        'Le point de terminaison webhook {{url}} a été désactivé : {{reason}}. Ses événements ne sont plus envoyés.',
        'Vérifiez le récepteur, puis réactivez le point de terminaison dans la console.',
      ],
      action: 'Ouvrir les webhooks',
    },
    staff_registration: {
      subject: '{{app}} : une nouvelle inscription attend une validation',
      body: [
        'Bonjour {{name}},',
        'Un nouveau promoteur s’est inscrit et attend une validation. En attente maintenant : {{count}}.',
      ],
      action: 'Ouvrir les inscriptions',
      counted: {
        count_one: '{{count}} inscription',
        count_many: '{{count}} d’inscriptions',
        count_other: '{{count}} inscriptions',
      },
    },
    staff_enrollment: {
      subject: '{{app}} : une candidature à une campagne attend une validation',
      body: [
        'Bonjour {{name}},',
        'Un promoteur a demandé à rejoindre une campagne. En attente maintenant : {{count}}.',
      ],
      action: 'Ouvrir les candidatures',
      counted: {
        count_one: '{{count}} candidature',
        count_many: '{{count}} de candidatures',
        count_other: '{{count}} candidatures',
      },
    },
    staff_withdrawal: {
      subject: '{{app}} : retrait demandé : {{amount}}',
      body: [
        'Bonjour {{name}},',
        'Un promoteur a demandé un retrait de {{amount}}. En attente d’approbation maintenant : {{count}}.',
      ],
      action: 'Ouvrir les retraits',
      counted: {
        count_one: '{{count}} retrait',
        count_many: '{{count}} de retraits',
        count_other: '{{count}} retraits',
      },
    },
    mail_failing: {
      subject: '{{app}} : l’envoi des e-mails échoue',
      body: [
        'Bonjour {{name}},',
        'Un e-mail n’a pas pu être envoyé : {{error}}. Les e-mails sont réessayés pendant plusieurs heures ; vérifiez le serveur de messagerie (SMTP_URL) et la page E-mail de la console.',
        'Vous ne serez prévenu à nouveau qu’après un envoi réussi.',
      ],
      action: 'Ouvrir la page E-mail',
    },
    ledger_breach: {
      subject: '{{app}} : le contrôle du grand livre a trouvé {{count}}',
      body: [
        'Bonjour {{name}},',
        'Un contrôle du grand livre a trouvé {{count}}. Les soldes et les rapports peuvent être faux tant que ce n’est pas corrigé : ouvrez le contrôle pour voir chacun.',
        'Vous ne serez prévenu à nouveau que si les problèmes trouvés changent.',
      ],
      action: 'Ouvrir le contrôle du grand livre',
      counted: {
        count_one: '{{count}} problème',
        count_many: '{{count}} de problèmes',
        count_other: '{{count}} problèmes',
      },
    },
  },
  mailChrome: {
    optOut: 'Vous pouvez désactiver ces e-mails dans {{app}} : Moi → Notifications par e-mail.',
    automatic: 'Ce message a été envoyé automatiquement par {{app}}.',
    open: 'Ouvrir :',
    colon: ' :',
  },
  pages: {
    linkNotFoundTitle: 'Lien introuvable',
    linkNotFoundBody: 'Ce lien n’existe pas ou a été supprimé. Vérifiez-le auprès de la personne qui l’a partagé.',
    notFoundTitle: 'Page introuvable',
    notFoundBody: "La page que vous cherchez n'existe pas ou a été supprimée.",
    errorTitle: 'Une erreur est survenue',
    errorBody: 'Le serveur a rencontré un problème. Réessayez plus tard.',
    backHome: "Aller à l'accueil",
  },
  commissionCsv: {
    status: {
      pending: 'En attente',
      approved: 'Validée',
      rejected: 'Refusée',
      reversed: 'Annulée',
    },
    level: {
      direct: 'Directe',
      team: 'Bonus d’équipe',
    },
  },
  auditCsv: {
    system: 'Système',
  },
  webhookTest: {
    message: 'Un événement de test envoyé par {{app}}.',
  },
} satisfies ServerTexts;
