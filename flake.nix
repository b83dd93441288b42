{
  description = "Tigers and Sheep (Bagh-Chal): rules library, engine, trainer and terminal game";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, flake-utils }:
    flake-utils.lib.eachDefaultSystem (system:
      let
        pkgs = import nixpkgs { inherit system; };
        version = (builtins.fromTOML (builtins.readFile ./Cargo.toml)).workspace.package.version;

        # `nix build`: every program of the workspace, built from Cargo.lock.
        tigers-and-sheep = pkgs.rustPlatform.buildRustPackage {
          pname = "tigers-and-sheep";
          inherit version;
          # A flake's source is the files git tracks: the table and training runs, which git
          # ignores, stay out.
          src = self;
          cargoLock.lockFile = ./Cargo.lock;
          # Every member, not only the game (the workspace's default member).
          cargoBuildFlags = [ "--workspace" "--bins" ];
          # .cargo/config.toml builds for the machine it runs on (target-cpu=native); a Nix
          # package is built once for every machine of its system, so it takes the system's
          # baseline instructions instead. The arithmetic is the same either way.
          postPatch = ''
            rm .cargo/config.toml
          '';
          # The tests need tmux, Chromium and a tablebase, which a Nix build sandbox has not:
          # run them with `cargo test --workspace` (README.md) in `nix develop`.
          doCheck = false;
          meta = {
            description = "Tigers and Sheep (Bagh-Chal): the game, engine, match runner, tablebase and trainer";
            license = with pkgs.lib.licenses; [ mit asl20 ];
            mainProgram = "tigers-and-sheep";
          };
        };

        app = name: {
          type = "app";
          program = "${tigers-and-sheep}/bin/${name}";
        };
      in
      {
        packages.default = tigers-and-sheep;
        packages.tigers-and-sheep = tigers-and-sheep;

        # `nix run` plays the game; `nix run .#engine`, `.#web`, `.#bench`, `.#tablebase`,
        # `.#train`, `.#tune`, `.#heldout` and `.#calibrate` start the other programs.
        apps = {
          default = app "tigers-and-sheep";
          engine = app "tns-engine";
          web = app "tns-web";
          bench = app "tns-bench";
          tablebase = app "tns-tablebase";
          train = app "tns-train";
          tune = app "tns-tune";
          heldout = app "tns-heldout";
          calibrate = app "tns-calibrate";
        };

        # `nix develop`: the stable Rust toolchain with clippy and rustfmt, plus the tools the
        # end-to-end tests and benchmarks use.
        devShells.default = pkgs.mkShell {
          packages = with pkgs; [
            cargo
            rustc
            clippy
            rustfmt
            rust-analyzer
            cargo-nextest
            tmux
            hyperfine
          ];
          RUST_SRC_PATH = "${pkgs.rustPlatform.rustLibSrc}";
        };
      });
}
