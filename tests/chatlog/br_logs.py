"""Hand-written brawl chatbot logs (the default bots, seed 0: three plays and a punt)."""

CLEAN = """\
## Move log

P1 away: CB2:S1@DL FS:F2@DM SS:S1@DR OLB2:S3@ML OLB1:S3@MM CB1:S1@MR MLB:S2@SL DT2:S4@SM DT1:S3@SR DE1:S4@BL DE2:S3@BR | home: OT2:F1@DL SLOT:F2@DM OT3:F1@DR TE:F1@ML WR2:F3@MM WR1:A2-4@MR OT1:S3@SL RB:S2@SM QB:A2-4@SR OT4:S4@BL OT5:S4@BR | home ball, 2nd & 10 at own 25 | round 1, score home 0-0 away | home has the ball first
P2 away: FS:A1-4@DL SS:F1@DM CB1:A1-4@DR OLB1:S2@ML OLB2:A1-4@MM CB2:A1-4@MR DT1:S2@SL DT2:S3@SM MLB:A1-3@SR DE2:S2@BL DE1:S2@BR | home: SLOT:F2@DL WR1:A1-5@DM WR2:A1-4@DR OT5:S3@ML TE:S2@MM OT2:S3@MR QB:A1-3@SL RB:F1@SM OT1:S2@SR OT4:S3@BL OT3:S3@BR | home ball, 3rd & 10 at own 25 | round 1, score home 0-0 away
P3 away: CB1:A1-3@DL FS:A1-3@DM SS:A1-3@DR OLB1:S1@ML OLB2:F2@MM CB2:A1-3@MR DT1:S2@SL MLB:F1@SM DT2:S2@SR DE1:A1-4@BL DE2:A0-3@BR | home: WR2:F2@DL WR1:A1-4@DM SLOT:S1@DR OT4:S2@ML TE:S1@MM QB:F2@MR OT1:S2@SL OT5:S2@SM RB:S1@SR OT3:A0-2@BL OT2:S2@BR | rolls CB1@DL 3, CB1@DR 3, CB2@MR 1, CB2@MR 2, DE1@BL 2, DE2@BR 1, FS@DL 4, FS@DM 1, MLB@SR 1, OLB2@MM 3, OT3@BL 1, QB@SL 3, QB@SR 2, SS@DR 2, WR1@DM 3, WR1@DM 1, WR1@MR 3, WR2@DR 2 | home ball, 4th & 10 at own 25 | round 1, score home 0-0 away
P4 home: punt | away ball, 1st & 10 at own 35 | round 2, score home 0-0 away
"""

#: as a chatbot writes it: a list in bold, lower case, commentary between the plays
MESSY = """\
**Move log**

- **Play 1** — Away: cb2:s1@dl fs:f2@dm ss:s1@dr olb2:s3@ml olb1:s3@mm cb1:s1@mr mlb:s2@sl dt2:s4@sm dt1:s3@sr de1:s4@bl de2:s3@br | home: ot2:f1@dl slot:f2@dm ot3:f1@dr te:f1@ml wr2:f3@mm wr1:a2-4@mr ot1:s3@sl rb:s2@sm qb:a2-4@sr ot4:s4@bl ot5:s4@br | home ball, 2nd & 10 at own 25 | round 1, score home 0-0 away | home has the ball first

What a stop by the defense!

- **Play 2** — Away: FS:A1-4@DL SS:F1@DM CB1:A1-4@DR OLB1:S2@ML OLB2:A1-4@MM CB2:A1-4@MR DT1:S2@SL DT2:S3@SM MLB:A1-3@SR DE2:S2@BL DE1:S2@BR | HOME: SLOT:F2@DL WR1:A1-5@DM WR2:A1-4@DR OT5:S3@ML TE:S2@MM OT2:S3@MR QB:A1-3@SL RB:F1@SM OT1:S2@SR OT4:S3@BL OT3:S3@BR | home ball, 3rd & 10 at own 25 | round 1, score home 0-0 away
"""
