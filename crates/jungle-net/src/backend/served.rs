//! One network on a GPU serving the searches of many threads, as lc0's
//! multiplexing backend and KataGo's server threads do: each thread's
//! evaluator sends its batch of encoded positions to one server thread,
//! which waits until every live client has a batch waiting (or
//! [`SERVER_WAIT`] has passed since the first one arrived), runs them all as
//! one forward pass through burn on the device, and hands each client its
//! rows back. A GPU needs hundreds to thousands of positions per pass to be
//! busy; one search thread's batch is tens.

use super::reference::PolicyValueNet;
use crate::device::Compute;
use crate::encoding::Encoding;
use crate::outputs::{Output, Outputs};
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};
use jungle_rules::{FILES, RANKS};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the server waits for the other clients' batches after the
/// first one arrived, when not all have one waiting.
pub const SERVER_WAIT: Duration = Duration::from_millis(2);

/// One client's batch: its encoded positions and where to send the outputs.
struct Request {
    input: Vec<f32>,
    batch: usize,
    reply: Sender<Outputs>,
}

/// A handle on the server of one network on one device. Cloning makes
/// another client (one per search thread); the server stops when the last
/// handle is dropped.
pub struct ServedNet {
    requests: Sender<Request>,
    clients: Arc<AtomicUsize>,
    stats: Arc<ServerStats>,
    encoding: Encoding,
    survival_head: bool,
}

/// What a server did: forward passes and the positions they held.
#[derive(Debug, Default)]
pub struct ServerStats {
    /// Forward passes run.
    pub passes: AtomicUsize,
    /// Positions evaluated.
    pub positions: AtomicUsize,
}

impl ServerStats {
    /// Mean positions per forward pass (0 before the first).
    pub fn mean_batch(&self) -> f64 {
        let passes = self.passes.load(Ordering::Relaxed);
        if passes == 0 {
            0.0
        } else {
            self.positions.load(Ordering::Relaxed) as f64 / passes as f64
        }
    }
}

impl ServedNet {
    /// Moves `net` (in inference mode) to `compute`'s device and starts its
    /// server thread, which waits up to [`SERVER_WAIT`] for the other
    /// clients' batches.
    pub fn start(net: &PolicyValueNet, compute: &Compute) -> ServedNet {
        ServedNet::start_with_wait(net, compute, SERVER_WAIT)
    }

    /// [`ServedNet::start`] with the server waiting up to `wait` for every
    /// client's batch.
    pub fn start_with_wait(net: &PolicyValueNet, compute: &Compute, wait: Duration) -> ServedNet {
        let (requests, inbox) = mpsc::channel::<Request>();
        let clients = Arc::new(AtomicUsize::new(1));
        let stats = Arc::new(ServerStats::default());
        let device = compute.device().clone();
        let on_device = net.valid().to_device(&device);
        let encoding = net.encoding();
        let survival_head = net.has_survival_head();
        {
            let clients = clients.clone();
            let stats = stats.clone();
            std::thread::Builder::new()
                .name("jungle-net-server".to_string())
                .spawn(move || {
                    let server = Server {
                        net: &on_device,
                        device: &device,
                        encoding,
                        wait,
                    };
                    server.serve(&inbox, &clients, &stats)
                })
                .expect("the server thread starts");
        }
        ServedNet {
            requests,
            clients,
            stats,
            encoding,
            survival_head,
        }
    }

    /// The input planes the network reads.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Whether the network has the survival head.
    pub fn has_survival_head(&self) -> bool {
        self.survival_head
    }

    /// The server's counters, shared by all its clients (holding them does
    /// not keep the server running).
    pub fn stats(&self) -> Arc<ServerStats> {
        Arc::clone(&self.stats)
    }

    /// Evaluates `batch` encoded positions (planes-first, as
    /// [`Encoding::encode`] writes them) in the server's next pass.
    pub fn forward(&self, input: &[f32], batch: usize) -> Outputs {
        assert_eq!(input.len(), batch * self.encoding.input_len());
        let (reply, answer) = mpsc::channel();
        self.requests
            .send(Request {
                input: input.to_vec(),
                batch,
                reply,
            })
            .expect("the server runs while a client is alive");
        answer.recv().expect("the server answers every request")
    }
}

impl Clone for ServedNet {
    fn clone(&self) -> ServedNet {
        self.clients.fetch_add(1, Ordering::SeqCst);
        ServedNet {
            requests: self.requests.clone(),
            clients: self.clients.clone(),
            stats: self.stats.clone(),
            encoding: self.encoding,
            survival_head: self.survival_head,
        }
    }
}

impl Drop for ServedNet {
    fn drop(&mut self) {
        self.clients.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The server thread's network and how long it waits for stragglers.
struct Server<'a> {
    net: &'a PolicyValueNet,
    device: &'a Device,
    encoding: Encoding,
    wait: Duration,
}

impl Server<'_> {
    /// The loop: gather, run, answer; returns when every client is gone.
    fn serve(&self, inbox: &Receiver<Request>, clients: &AtomicUsize, stats: &ServerStats) {
        let Server {
            net,
            device,
            encoding,
            wait,
        } = *self;
        while let Ok(first) = inbox.recv() {
            let mut pending = vec![first];
            let deadline = Instant::now() + wait;
            while pending.len() < clients.load(Ordering::SeqCst) {
                let left = deadline.saturating_duration_since(Instant::now());
                match inbox.recv_timeout(left) {
                    Ok(request) => pending.push(request),
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
                }
            }
            let total: usize = pending.iter().map(|r| r.batch).sum();
            let mut input = Vec::with_capacity(total * encoding.input_len());
            for request in &pending {
                input.extend_from_slice(&request.input);
            }
            let out = forward_on_device(net, device, encoding, input, total);
            stats.passes.fetch_add(1, Ordering::Relaxed);
            stats.positions.fetch_add(total, Ordering::Relaxed);
            let mut row = 0;
            for request in pending {
                let part = out.rows(row, request.batch);
                row += request.batch;
                // A client that went away takes its answer with it.
                let _ = request.reply.send(part);
            }
        }
    }
}

/// One forward pass of `batch` positions through burn on `device` (where
/// `net` lives), its outputs read back in one transfer.
pub fn forward_on_device(
    net: &PolicyValueNet,
    device: &Device,
    encoding: Encoding,
    input: Vec<f32>,
    batch: usize,
) -> Outputs {
    let shape = [batch, encoding.planes(), RANKS as usize, FILES as usize];
    let x = Tensor::<4>::from_data(TensorData::new(input, shape), device);
    let (outputs, parts): (Vec<Output>, Vec<Tensor<2>>) =
        net.forward_outputs(x).into_iter().unzip();
    let all = Tensor::cat(parts, 1)
        .into_data()
        .try_into_vec::<f32>()
        .expect("the outputs are f32");
    Outputs::from_rows(&all, batch, &outputs)
}
