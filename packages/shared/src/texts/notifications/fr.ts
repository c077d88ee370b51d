/** French: the inbox's messages — what a notification's type and parameters become (issue 30; the web mounts them under `notifications`). */
import type { NotificationTexts } from '../types';

export default {
  aCampaign: 'une campagne',
  reason: 'Motif : {{reason}}',
  reference: 'Référence du versement : {{reference}}',
  error: 'Erreur : {{error}}',
  enrollment: {
    approved: {
      title: 'Vous pouvez promouvoir « {{campaign}} »',
      body: 'Votre demande de participation a été acceptée. Créez un lien et commencez à partager.',
    },
    rejected: {
      title: 'Participation refusée : « {{campaign}} »',
      body: 'Votre demande de participation à cette campagne n’a pas été acceptée.',
    },
  },
  commission: {
    created: {
      title: 'Nouvelle commission : {{amount}}',
      titleTeam: 'Nouveau bonus d’équipe : {{amount}}',
      body: 'Campagne « {{campaign}} ». Disponible après le délai de retour.',
      bodyTeam: 'Vente d’un membre de votre équipe, campagne « {{campaign}} ». Disponible après le délai de retour.',
    },
    approved: {
      title: '{{amount}} désormais disponibles',
      titleTeam: 'Bonus d’équipe de {{amount}} désormais disponible',
      body: 'Votre commission de la campagne « {{campaign}} » a été validée. Vous pouvez la retirer.',
      bodyTeam: 'Votre bonus d’équipe de la campagne « {{campaign}} » a été validé. Vous pouvez le retirer.',
    },
    rejected: {
      title: 'Commission refusée : {{amount}}',
      titleTeam: 'Bonus d’équipe refusé : {{amount}}',
      body: 'Votre commission de la campagne « {{campaign}} » n’a pas été validée.',
      bodyTeam: 'Votre bonus d’équipe de la campagne « {{campaign}} » n’a pas été validé.',
    },
    reversed: {
      title: 'Commission reprise : {{amount}}',
      titleTeam: 'Bonus d’équipe repris : {{amount}}',
      body: 'La commande de la campagne « {{campaign}} » a été remboursée ; la commission a été reprise.',
      bodyTeam: 'La commande d’un membre de votre équipe (campagne « {{campaign}} ») a été remboursée ; le bonus a été repris.',
      bodyClawback: 'Le programme a repris votre commission de la campagne « {{campaign}} ».',
      bodyClawbackTeam: 'Le programme a repris votre bonus d’équipe de la campagne « {{campaign}} ».',
    },
  },
  withdrawal: {
    requested: {
      title: 'Retrait demandé : {{amount}}',
      body: 'Vous recevrez {{net}} une fois le retrait validé et versé.',
    },
    approved: {
      title: 'Retrait validé : {{amount}}',
      body: '{{net}} sont en route vers votre compte.',
    },
    paid: {
      title: 'Retrait versé : {{net}}',
      body: 'L’argent a été envoyé sur votre compte de versement.',
    },
    failed: {
      title: 'Échec du retrait : {{amount}}',
      body: 'Le versement n’a pas abouti. Le montant est revenu sur votre solde disponible.',
    },
    rejected: {
      title: 'Retrait refusé : {{amount}}',
      body: 'Le montant est revenu sur votre solde disponible.',
    },
    cancelled: {
      title: 'Retrait annulé : {{amount}}',
      body: 'Le montant est revenu sur votre solde disponible.',
    },
  },
  adjustment: {
    creditTitle: 'Ajouté à votre solde : {{amount}}',
    debitTitle: 'Retiré de votre solde : {{amount}}',
    body: 'Le programme a ajusté votre solde disponible de {{amount}}. Motif : {{reason}}',
    bodyNoReason: 'Le programme a ajusté votre solde disponible de {{amount}}.',
  },
  bounty: {
    earned: {
      title: 'Prime gagnée : {{amount}}',
      body: 'Vous avez atteint « {{bounty}} » dans « {{campaign}} ». Elle sera disponible après la période de retour.',
    },
    submission_rejected: {
      title: 'Preuve refusée : « {{bounty}} »',
      body: 'Votre preuve pour cette prime de « {{campaign}} » n’a pas été approuvée. Vous pouvez en envoyer une autre.',
    },
  },
  unknown: {
    title: 'Nouvelle notification',
    body: 'Mettez l’application à jour pour afficher cette notification en entier.',
  },
  staff: {
    registration: {
      title_one: '{{count}} inscription attend une validation',
      title_many: '{{count}} d’inscriptions attendent une validation',
      title_other: '{{count}} inscriptions attendent une validation',
      body: 'Un nouveau promoteur s’est inscrit. Examinez les inscriptions.',
    },
    enrollment: {
      title_one: '{{count}} demande d’adhésion attend une validation',
      title_many: '{{count}} de demandes d’adhésion attendent une validation',
      title_other: '{{count}} demandes d’adhésion attendent une validation',
      body: 'Un promoteur a demandé à rejoindre une campagne. Examinez les demandes d’adhésion.',
    },
    withdrawal: {
      title: 'Retrait demandé : {{amount}}',
      body_one: '{{count}} retrait attend une approbation.',
      body_many: '{{count}} de retraits attendent une approbation.',
      body_other: '{{count}} retraits attendent une approbation.',
    },
    webhook_disabled: {
      title: 'Point de terminaison webhook désactivé',
      body: '{{url}} a été désactivé : {{reason}}. Ses événements ne sont plus envoyés.',
      gone: 'le récepteur a répondu 410 Gone',
      failing: 'toutes les livraisons échouent depuis 5 jours',
    },
    mail_failing: {
      title: 'L’envoi des e-mails échoue',
      body: 'Un e-mail n’a pas pu être envoyé. Vous ne serez prévenu à nouveau qu’après un envoi réussi.',
    },
    ledger_breach: {
      title_one: 'Le contrôle du grand livre a trouvé {{count}} problème',
      title_many: 'Le contrôle du grand livre a trouvé {{count}} de problèmes',
      title_other: 'Le contrôle du grand livre a trouvé {{count}} problèmes',
      body: 'Les soldes et les rapports peuvent être faux tant que ce n’est pas corrigé. Ouvrez le contrôle pour voir chacun.',
    },
  },
} satisfies NotificationTexts;
