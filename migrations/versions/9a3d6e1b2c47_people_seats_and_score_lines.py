"""People across games: who sat in each seat, and one score line per person per round

Revision ID: 9a3d6e1b2c47
Revises: 5c8e2f7a1d44
Create Date: 2026-11-26 19:40:00

The existing games are read into the new tables: each player's name becomes a person (names
that differ only in case are one person, spelt as in their earliest game), and every entered
score becomes a score line, scored under its game's rules by the same function the app uses.
"""

import sqlalchemy as sa
from alembic import op

from companion.games.people import name_key, score_lines

# revision identifiers, used by Alembic.
revision = "9a3d6e1b2c47"
down_revision = "5c8e2f7a1d44"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_person")),
        sa.UniqueConstraint("name_key", name=op.f("uq_person_name_key")),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("game_finished", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_seat_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_seat_person_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("game_id", "person_id", name="uq_seat_game_person"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seat_person_id"), ["person_id"], unique=False)
    op.create_table(
        "score_line",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("held_double_blank", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_score_line_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_score_line_person_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_line")),
        sa.UniqueConstraint("game_id", "n", "seat", name="uq_score_line_game_n_seat"),
    )
    with op.batch_alter_table("score_line", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_score_line_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            "ix_score_line_person_figures",
            ["person_id", "points", "went_out", "held_double_blank"],
            unique=False,
        )
    backfill()


def backfill():
    """Read every stored game into people, seats and score lines."""
    connection = op.get_bind()
    meta = sa.MetaData()
    game = sa.Table("game", meta, autoload_with=connection)
    round_ = sa.Table("round", meta, autoload_with=connection)
    person = sa.Table("person", meta, autoload_with=connection)
    seat = sa.Table("seat", meta, autoload_with=connection)
    score_line = sa.Table("score_line", meta, autoload_with=connection)

    rounds_of = {}
    for row in connection.execute(sa.select(round_.c.game_id, round_.c.n, round_.c.scores)):
        rounds_of.setdefault(row.game_id, {})[row.n] = row.scores
    people = {}
    games = connection.execute(
        sa.select(game.c.id, game.c.players, game.c.rules, game.c.created_at).order_by(
            game.c.created_at, game.c.id
        )
    ).all()
    for row in games:
        ids = []
        for name in row.players:
            key = name_key(name)
            if key not in people:
                people[key] = connection.execute(
                    sa.insert(person)
                    .values(name=name, name_key=key, created_at=row.created_at)
                    .returning(person.c.id)
                ).scalar_one()
            ids.append(people[key])
        lines, finished = score_lines(row.players, row.rules, rounds_of.get(row.id, {}))
        connection.execute(
            sa.insert(seat),
            [
                {
                    "game_id": row.id,
                    "seat": index,
                    "person_id": id_,
                    "game_finished": finished,
                    "total": sum(line.points for line in lines if line.seat == index),
                }
                for index, id_ in enumerate(ids)
            ],
        )
        if lines:
            connection.execute(
                sa.insert(score_line),
                [
                    {
                        "game_id": row.id,
                        "n": line.n,
                        "seat": line.seat,
                        "person_id": ids[line.seat],
                        "points": line.points,
                        "went_out": line.went_out,
                        "held_double_blank": line.held_double_blank,
                    }
                    for line in lines
                ],
            )


def downgrade():
    # The games keep their players' names and rounds: nothing is lost by dropping these.
    with op.batch_alter_table("score_line", schema=None) as batch_op:
        batch_op.drop_index("ix_score_line_person_figures")
        batch_op.drop_index(batch_op.f("ix_score_line_game_id"))
    op.drop_table("score_line")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_person_id"))
        batch_op.drop_index(batch_op.f("ix_seat_game_id"))
    op.drop_table("seat")
    op.drop_table("person")
