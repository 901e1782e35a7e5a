//! `tyredesk`: command-line entry point.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use web::config::Config;
use db::accounts::{self, NewMembership, NewUser};
use tyredesk::{seed, serve};

/// mimalloc returns freed memory to the OS, so a large export's buffers do not stay with the
/// process afterwards as they did with the system allocator (docs/decisions/operations.md, "Builds and the allocator").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "tyredesk", version, about = "TyreDesk back office")]
struct Cli {
    /// Database: a file path or sqlite://path (SQLite), or postgres://… (PostgreSQL).
    #[arg(long, env = "DATABASE_URL", global = true)]
    database_url: Option<String>,
    /// Address to listen on.
    #[arg(long, env = "TYREDESK_BIND", global = true)]
    bind: Option<String>,
    /// Folder for the SQLite file, reports and uploads.
    #[arg(long, env = "TYREDESK_DATA_DIR", global = true)]
    data_dir: Option<PathBuf>,
    /// Where report files, queued uploads and backups go: s3://bucket[/prefix] for an
    /// S3-compatible store (credentials from AWS_*), unset for the data directory.
    #[arg(long, env = "TYREDESK_STORAGE_URL", global = true)]
    storage_url: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web server (the default).
    Serve {
        /// Do not seed demo data into an empty database (production).
        #[arg(long)]
        no_demo: bool,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Fill an empty database with generated data.
    Seed {
        #[arg(long, value_enum, default_value = "demo")]
        scale: seed::Scale,
    },
    /// Generate a data set, serve it on loopback and time the scenarios of DESIGN §10.
    Bench(BenchArgs),
    /// Run a Xero stand-in on loopback (for demos and manual testing of the accounting link)
    /// and print the settings to paste into Settings › Accounting link.
    /// `--bind` picks its address (loopback only; 127.0.0.1:9911 when not given).
    XeroFake,
    /// Copy the live SQLite database and the report files into one .tar.gz while the server
    /// runs (on PostgreSQL: prints the pg_dump command to use instead). See docs/operations.md.
    Backup {
        /// The archive to write (default: <data dir>/backups/tyredesk-YYYYMMDD-HHMMSS.tar.gz).
        #[arg(long)]
        to: Option<PathBuf>,
    },
    /// Copy this SQLite database (--database-url / --data-dir) into an empty PostgreSQL
    /// database, then start the server with DATABASE_URL set to it. See docs/operations.md.
    CopyToPostgres {
        /// The empty PostgreSQL database, postgres://user:pass@host/db.
        #[arg(long)]
        to: String,
    },
    /// Manage sign-ins.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
}

#[derive(Args)]
struct BenchArgs {
    #[arg(long, value_enum, default_value = "S")]
    scale: seed::Scale,
    /// Timed requests per scenario at one client.
    #[arg(long, default_value_t = 200)]
    requests: usize,
    /// A one-client scenario stops after this many seconds even if it has not sent all its requests.
    #[arg(long, default_value_t = 10.0)]
    max_seconds: f64,
    /// Concurrent clients, each on its own connection, for the load rows (1: none).
    #[arg(long, default_value_t = 32)]
    clients: usize,
    /// Seconds the concurrent clients send requests per scenario.
    #[arg(long, default_value_t = 4.0)]
    concurrent_seconds: f64,
    /// Run only scenarios whose name contains this text; repeat or separate with commas.
    #[arg(long = "scenario", value_delimiter = ',')]
    scenarios: Vec<String>,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Measure the database DATABASE_URL names as it is, seeded before with `tyredesk seed
    /// --scale` of the same scale, instead of seeding a throwaway one. The save scenarios add
    /// sheets to it.
    #[arg(long)]
    existing: bool,
}

#[derive(Subcommand)]
enum UserCommand {
    /// Create a user with a membership in one company.
    Add(UserAdd),
}

#[derive(Args)]
struct UserAdd {
    #[arg(long)]
    email: String,
    #[arg(long)]
    name: String,
    /// Company (organisation) id.
    #[arg(long)]
    org: i64,
    /// Role 1–6 (spec §6).
    #[arg(long, default_value_t = 2)]
    role: i32,
    /// Password; a random one is generated and printed when omitted.
    #[arg(long, env = "TYREDESK_PASSWORD")]
    password: Option<String>,
    #[arg(long)]
    mod_prc: bool,
    #[arg(long)]
    is_acct: bool,
    #[arg(long)]
    crt_csr: bool,
}

fn main() -> ExitCode {
    web::files::private_from_now_on();
    // SAFETY: mi_collect only returns free pages of the calling thread's mimalloc heap (and
    // abandoned ones) to the system; it touches no memory in use.
    db::after_large_reads(|| unsafe { libmimalloc_sys::mi_collect(true) });
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("TYREDESK_LOG").unwrap_or_else(|_| "tyredesk=info,tower_http=warn".into()))
        .with_target(false)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("tyredesk: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let config = Config::new(cli.database_url.as_deref(), cli.bind.as_deref(), cli.data_dir.as_deref(), cli.storage_url.as_deref())?;
    match cli.command.unwrap_or(Command::Serve { no_demo: false }) {
        Command::Serve { no_demo } => {
            let rts = web::runtimes::build().map_err(|e| format!("cannot start the runtime: {e}"))?;
            rts.main.block_on(serve::serve(config, !no_demo, rts.writes)).map_err(|e| e.to_string())
        }
        Command::Backup { to } => match tyredesk::ops::backup::run(&config, to.as_deref())? {
            tyredesk::ops::backup::Backup::Written { path, bytes, report_files } => {
                println!("Backup written: {} ({:.1} MB; the database and {report_files} report files).", path.display(), bytes as f64 / 1_048_576.0);
                println!("If the Xero link is used, keep a copy of the key apart from this backup: {} (or TYREDESK_SECRET_KEY).", config.data_dir.join("secret.key").display());
                Ok(())
            }
            tyredesk::ops::backup::Backup::Stored { location, bytes, report_files } => {
                println!("Backup stored: {location} ({:.1} MB; the database and {report_files} report files).", bytes as f64 / 1_048_576.0);
                println!("If the Xero link is used, keep a copy of the key apart from this backup: {} (or TYREDESK_SECRET_KEY).", config.data_dir.join("secret.key").display());
                Ok(())
            }
            tyredesk::ops::backup::Backup::UsePgDump { command } => {
                println!("The database is PostgreSQL: back it up with pg_dump, e.g.");
                println!("  {command}");
                match &config.storage {
                    services::store::Location::DataDir => println!("and copy the report files in {} beside it.", config.data_dir.join("reports").display()),
                    bucket => println!("The report files are in {bucket}/reports: keep that bucket versioned or replicated."),
                }
                Ok(())
            }
        },
        Command::CopyToPostgres { to } => {
            let started = std::time::Instant::now();
            let copied = tyredesk::ops::copy::run(&config, &to, |table, rows| println!("  {table}: {rows} rows"))?;
            let rows: i64 = copied.tables.iter().map(|(_, n)| n).sum();
            println!("Copied {} tables, {rows} rows, in {:.1} s; every table's count matches.", copied.tables.len(), started.elapsed().as_secs_f64());
            println!("Start the server with DATABASE_URL set to the PostgreSQL database (and the same data directory for reports).");
            Ok(())
        }
        Command::Migrate => {
            serve::open(&config)?;
            println!("Migrations are up to date.");
            Ok(())
        }
        Command::Seed { scale } => {
            let db = serve::open(&config)?;
            let mut conn = db.get().map_err(|e| e.to_string())?;
            let today = chrono::Utc::now().with_timezone(&chrono_tz::Australia::Sydney).date_naive();
            let started = std::time::Instant::now();
            seed::seed(&mut conn, scale, today).map_err(|e| format!("seeding failed: {e}"))?;
            println!("Seeded {scale:?} data in {:.1} s.", started.elapsed().as_secs_f64());
            print!("{}", seed::demo_signins());
            Ok(())
        }
        Command::Bench(b) => {
            // A throwaway folder unless DATABASE_URL names a (fresh) PostgreSQL database.
            let config = match &config.database {
                _ if b.existing => config,
                db::DatabaseUrl::Postgres(_) => config,
                _ => {
                    let dir = std::env::temp_dir().join(format!("tyredesk-bench-{}", std::process::id()));
                    Config::new(Some(dir.join("bench.sqlite3").to_string_lossy().as_ref()), None, Some(&dir), None)?
                }
            };
            let seconds = |s: f64, what: &str| std::time::Duration::try_from_secs_f64(s).map_err(|_| format!("{what} must be a number of seconds, not {s}"));
            let limits = tyredesk::bench::Limits { requests: b.requests, max_single: seconds(b.max_seconds, "--max-seconds")?, concurrent: seconds(b.concurrent_seconds, "--concurrent-seconds")? };
            let opts = tyredesk::bench::Options { scale: b.scale, limits, clients: b.clients.max(1), scenarios: b.scenarios, json: b.json, existing: b.existing };
            // The server's runtimes, as `serve` runs them (the clients share the main one).
            let rts = web::runtimes::build().map_err(|e| format!("cannot start the runtime: {e}"))?;
            let ok = rts.main.block_on(tyredesk::bench::run(config, opts, rts.writes)).map_err(|e| e.to_string())?;
            if ok { Ok(()) } else { Err("some scenarios were over their budget".into()) }
        }
        Command::XeroFake => {
            let raw = cli.bind.as_deref().unwrap_or("127.0.0.1:9911");
            let fake_bind: std::net::SocketAddr = raw.parse().map_err(|_| format!("--bind must be an address such as 127.0.0.1:9911, not {raw}"))?;
            if !fake_bind.ip().is_loopback() {
                return Err(format!("the Xero stand-in listens on loopback only, not {fake_bind}"));
            }
            let rt = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
            rt.block_on(xero::fake::FakeXero::run_cli(fake_bind)).map_err(|e| format!("cannot run the Xero stand-in on {fake_bind}: {e}"))
        }
        Command::User { command: UserCommand::Add(u) } => add_user(&config, u),
    }
}

fn add_user(config: &Config, u: UserAdd) -> Result<(), String> {
    if !(1..=6).contains(&u.role) {
        return Err("role must be 1 to 6".into());
    }
    if domain::validate::sign_in_email(&u.email).is_err() {
        return Err(format!("'{}' is not an e-mail address", u.email));
    }
    let db = serve::open(config)?;
    let mut conn = db.get().map_err(|e| e.to_string())?;
    let generated = u.password.is_none();
    let password = u.password.unwrap_or_else(|| db::token::random_token()[..16].to_string());
    let hash = services::password::hash(&password).map_err(|e| e.to_string())?;
    let email = u.email.trim().to_lowercase();
    let now = db::now();
    use diesel::Connection;
    conn.transaction(|c| {
        if accounts::user_by_email(c, &email)?.is_some() {
            return Err(db::error::AppError::bad_request(format!("a user with e-mail {email} already exists")));
        }
        accounts::organisation(c, u.org).map_err(|_| db::error::AppError::bad_request(format!("company {} does not exist", u.org)))?;
        let id = accounts::insert_user(
            c,
            &NewUser { email: &email, name: &u.name, phone: "", password_hash: &hash, status: 1, able_login: true, is_active: true, created_at: now, updated_at: now },
        )?;
        accounts::insert_membership(
            c,
            &NewMembership { user_id: id, org_id: u.org, role: u.role, mod_prc: u.mod_prc, is_acct: u.is_acct, crt_csr: u.crt_csr, last_used_at: None, created_at: now },
        )
    })
    .map_err(|e| e.to_string())?;
    println!("User {email} added to company {} with role {}.", u.org, u.role);
    if generated {
        println!("Generated password: {password}");
    }
    Ok(())
}
